/* Texture types for host code, as AMD's hip/hip_texture_types.h provides
 * them: the texture and channel descriptor types and, in C++, the texture
 * reference template of the deprecated texture API. */
#ifndef STREAMHAL_HIP_HIP_TEXTURE_TYPES_H_
#define STREAMHAL_HIP_HIP_TEXTURE_TYPES_H_

#include <limits.h>

#include "hip/channel_descriptor.h"
#include "hip/texture_types.h"

#ifdef __cplusplus

typedef textureReference* hipTexRef;

/* A texture reference whose channel format follows from its element type T.
 * Textures are not bound through references in streamhal (the hipTexRef* and
 * hipBindTexture* calls report hipErrorNotSupported); the template lets code
 * that declares them compile. */
template <class T, int texType = hipTextureType1D,
          enum hipTextureReadMode mode = hipReadModeElementType>
struct texture : public textureReference {
  texture(int norm = 0, enum hipTextureFilterMode fMode = hipFilterModePoint,
          enum hipTextureAddressMode aMode = hipAddressModeClamp)
      : texture(norm, fMode, aMode, hipCreateChannelDesc<T>()) {}

  texture(int norm, enum hipTextureFilterMode fMode, enum hipTextureAddressMode aMode,
          struct hipChannelFormatDesc desc)
      : textureReference() {
    normalized = norm;
    readMode = mode;
    filterMode = fMode;
    addressMode[0] = aMode;
    addressMode[1] = aMode;
    addressMode[2] = aMode;
    channelDesc = desc;
  }
};

#endif /* __cplusplus */

#endif /* STREAMHAL_HIP_HIP_TEXTURE_TYPES_H_ */
