// streamhal-pack --embed: the C++ source and header that hold a kernel image,
// register it at start-up and declare one typed host stub per kernel.
#ifndef STREAMHAL_APPS_STREAMHAL_PACK_EMBED_H_
#define STREAMHAL_APPS_STREAMHAL_PACK_EMBED_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"

namespace streamhal::pack {

struct EmbedFiles {
  std::string header;
  std::string source;
};

// `image` is the packed image, `modules` the SPIR-V modules in it (reflected
// for the kernels' parameter lists and the globals); `header_path` is what
// the source includes (by its file name only).
absl::StatusOr<EmbedFiles> EmbedSources(const std::vector<uint8_t>& image,
                                        const std::vector<std::vector<uint32_t>>& modules,
                                        const std::string& header_path);

}  // namespace streamhal::pack

#endif  // STREAMHAL_APPS_STREAMHAL_PACK_EMBED_H_
