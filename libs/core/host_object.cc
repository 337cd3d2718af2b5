#include "core/host_object.h"

#include <elf.h>

#include <cstring>

#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "core/code_object.h"
#include "core/status.h"

namespace streamhal {
namespace {

constexpr char kArchiveMagic[] = "!<arch>\n";
constexpr char kThinArchiveMagic[] = "!<thin>\n";
constexpr size_t kArchiveMagicBytes = 8;
constexpr size_t kMemberHeaderBytes = 60;
constexpr size_t kFatBinaryHeaderBytes = 16;

// Little-endian fields at any alignment (the host is little-endian, as the
// ELF files accepted are).
template <typename T>
T Load(const uint8_t* p) {
  T value;
  std::memcpy(&value, p, sizeof(value));
  return value;
}

// [offset, offset + length) lies inside a buffer of `size` bytes, without
// overflow.
bool InRange(uint64_t offset, uint64_t length, size_t size) {
  return offset <= size && length <= size - offset;
}

absl::Status Malformed(const auto&... what) { return Error(ErrorCode::kInvalidImage, what...); }

// The fat binaries packed into one device-code section.
absl::Status SplitFatBinaries(ByteSpan section, absl::string_view name,
                              std::vector<ByteSpan>* out) {
  size_t offset = 0;
  while (offset < section.size()) {
    // Objects joined by `ld -r` pad each part to its alignment with zeros.
    if (section[offset] == 0) {
      ++offset;
      continue;
    }
    if (!InRange(offset, kFatBinaryHeaderBytes, section.size())) {
      return Malformed("host object: section ", name, " ends inside a fat binary header at ",
                       offset);
    }
    const uint8_t* header = section.data() + offset;
    if (Load<uint32_t>(header) != kNvFatBinaryMagic) {
      return Malformed("host object: section ", name, " holds no NVIDIA fat binary at offset ",
                       offset);
    }
    const uint16_t header_bytes = Load<uint16_t>(header + 6);
    const uint64_t entries_bytes = Load<uint64_t>(header + 8);
    if (header_bytes < kFatBinaryHeaderBytes || !InRange(offset, header_bytes, section.size()) ||
        !InRange(offset + header_bytes, entries_bytes, section.size())) {
      return Malformed("host object: the fat binary at offset ", offset, " of section ", name,
                       " claims ", header_bytes, " + ", entries_bytes,
                       " bytes, past the section's ", section.size());
    }
    const size_t extent = header_bytes + static_cast<size_t>(entries_bytes);
    out->push_back(section.subspan(offset, extent));
    offset += extent;
  }
  return absl::OkStatus();
}

// Parses an archive member's decimal size field.
bool ParseDecimal(absl::string_view field, uint64_t* value) {
  *value = 0;
  size_t i = 0;
  while (i < field.size() && field[i] == ' ') ++i;  // some writers right-align
  const size_t first_digit = i;
  for (; i < field.size() && field[i] >= '0' && field[i] <= '9'; ++i) {
    if (*value > (uint64_t{1} << 40)) return false;  // no member is this large
    *value = *value * 10 + static_cast<uint64_t>(field[i] - '0');
  }
  if (i == first_digit) return false;
  for (; i < field.size(); ++i) {
    if (field[i] != ' ') return false;
  }
  return true;
}

absl::string_view TrimRight(absl::string_view s) {
  while (!s.empty() && s.back() == ' ') s.remove_suffix(1);
  return s;
}

}  // namespace

bool IsElfFile(ByteSpan bytes) {
  return bytes.size() >= SELFMAG && std::memcmp(bytes.data(), ELFMAG, SELFMAG) == 0;
}

bool IsArchive(ByteSpan bytes) {
  return bytes.size() >= kArchiveMagicBytes &&
         (std::memcmp(bytes.data(), kArchiveMagic, kArchiveMagicBytes) == 0 ||
          std::memcmp(bytes.data(), kThinArchiveMagic, kArchiveMagicBytes) == 0);
}

absl::StatusOr<std::vector<ByteSpan>> HostObjectFatBinaries(ByteSpan object) {
  const uint8_t* data = object.data();
  const size_t size = object.size();
  if (!IsElfFile(object) || size < sizeof(Elf64_Ehdr)) {
    return Malformed("host object: not an ELF file (", size, " bytes)");
  }
  if (data[EI_CLASS] != ELFCLASS64 || data[EI_DATA] != ELFDATA2LSB ||
      data[EI_VERSION] != EV_CURRENT) {
    return Malformed("host object: not a 64-bit little-endian ELF file");
  }
  const auto header = Load<Elf64_Ehdr>(data);
  if (header.e_shoff == 0) return std::vector<ByteSpan>{};  // no sections, no device code
  if (header.e_shentsize != sizeof(Elf64_Shdr)) {
    return Malformed("host object: section header size ", header.e_shentsize, " is not ",
                     sizeof(Elf64_Shdr));
  }
  if (!InRange(header.e_shoff, sizeof(Elf64_Shdr), size)) {
    return Malformed("host object: the section headers at ", header.e_shoff, " lie past its ", size,
                     " bytes");
  }
  auto section_header = [&](uint64_t index) {
    return Load<Elf64_Shdr>(data + header.e_shoff + index * sizeof(Elf64_Shdr));
  };
  // ELF: with 0xff00 sections or more, e_shnum is 0 and the count is in
  // section 0's sh_size; likewise e_shstrndx is SHN_XINDEX and the index is in
  // its sh_link.
  const Elf64_Shdr first = section_header(0);
  const uint64_t count = header.e_shnum != 0 ? header.e_shnum : first.sh_size;
  const uint64_t names_index = header.e_shstrndx == SHN_XINDEX ? first.sh_link : header.e_shstrndx;
  if (count > (size - header.e_shoff) / sizeof(Elf64_Shdr)) {
    return Malformed("host object: ", count, " section headers at ", header.e_shoff,
                     " run past its ", size, " bytes");
  }
  if (names_index == SHN_UNDEF || names_index >= count) {
    return Malformed("host object: the section name table index ", names_index,
                     " is not a section");
  }
  const Elf64_Shdr names = section_header(names_index);
  if (names.sh_type == SHT_NOBITS || !InRange(names.sh_offset, names.sh_size, size)) {
    return Malformed("host object: the section name table [", names.sh_offset, "+", names.sh_size,
                     ") lies outside its ", size, " bytes");
  }
  const absl::string_view name_table(reinterpret_cast<const char*>(data + names.sh_offset),
                                     names.sh_size);

  std::vector<ByteSpan> fat_binaries;
  for (uint64_t i = 1; i < count; ++i) {
    const Elf64_Shdr section = section_header(i);
    if (section.sh_name >= name_table.size()) {
      return Malformed("host object: section ", i, "'s name offset ", section.sh_name,
                       " is past the name table");
    }
    const size_t end = name_table.find('\0', section.sh_name);
    if (end == absl::string_view::npos) {
      return Malformed("host object: section ", i, "'s name is not terminated");
    }
    const absl::string_view name = name_table.substr(section.sh_name, end - section.sh_name);
    if (name != kNvFatbinSection && name != kNvRelFatbinSection) continue;
    if (section.sh_type == SHT_NOBITS) continue;  // reserves space only
    if (!InRange(section.sh_offset, section.sh_size, size)) {
      return Malformed("host object: section ", name, " [", section.sh_offset, "+", section.sh_size,
                       ") lies outside its ", size, " bytes");
    }
    SH_RETURN_IF_ERROR(
        SplitFatBinaries(object.subspan(section.sh_offset, section.sh_size), name, &fat_binaries));
  }
  return fat_binaries;
}

absl::StatusOr<std::vector<ArchiveMember>> ReadArchive(ByteSpan archive) {
  if (!IsArchive(archive)) return Malformed("archive: no \"!<arch>\" header");
  if (std::memcmp(archive.data(), kThinArchiveMagic, kArchiveMagicBytes) == 0) {
    return Malformed("archive: a thin archive names files outside it; give a regular one");
  }
  const auto text = [&](size_t offset, size_t length) {
    return absl::string_view(reinterpret_cast<const char*>(archive.data() + offset), length);
  };
  std::vector<ArchiveMember> members;
  absl::string_view long_names;
  size_t offset = kArchiveMagicBytes;
  while (offset < archive.size()) {
    // Member data is padded to an even offset; the last pad may be missing.
    if (archive[offset] == '\n' && offset + 1 == archive.size()) break;
    if (!InRange(offset, kMemberHeaderBytes, archive.size())) {
      return Malformed("archive: truncated member header at offset ", offset);
    }
    const absl::string_view header = text(offset, kMemberHeaderBytes);
    uint64_t length = 0;
    if (header.substr(58, 2) != "`\n" || !ParseDecimal(header.substr(48, 10), &length)) {
      return Malformed("archive: malformed member header at offset ", offset);
    }
    const size_t data_offset = offset + kMemberHeaderBytes;
    if (!InRange(data_offset, length, archive.size())) {
      return Malformed("archive: the member at offset ", offset, " claims ", length,
                       " bytes, past the archive's ", archive.size());
    }
    ByteSpan data = archive.subspan(data_offset, length);
    offset = data_offset + static_cast<size_t>(length) + (length & 1);

    const absl::string_view name_field = TrimRight(header.substr(0, 16));
    if (name_field == "/" || name_field == "/SYM64/") continue;  // symbol tables
    if (name_field == "//") {
      long_names = text(data_offset, length);
      continue;
    }
    std::string name;
    if (name_field.size() > 1 && name_field[0] == '/') {
      // GNU: "/<offset>" into the long-name table, ended by "/\n".
      uint64_t name_offset = 0;
      if (!ParseDecimal(name_field.substr(1), &name_offset) || name_offset >= long_names.size()) {
        return Malformed("archive: member name '", name_field, "' at offset ",
                         data_offset - kMemberHeaderBytes, " is not in the long-name table");
      }
      const size_t end = long_names.find('\n', name_offset);
      if (end == absl::string_view::npos) {
        return Malformed("archive: long member name at ", name_offset, " is not terminated");
      }
      absl::string_view long_name = long_names.substr(name_offset, end - name_offset);
      if (!long_name.empty() && long_name.back() == '/') long_name.remove_suffix(1);
      name = std::string(long_name);
    } else if (name_field.substr(0, 3) == "#1/") {
      // BSD: the name is the first <length> bytes of the data.
      uint64_t name_length = 0;
      if (!ParseDecimal(name_field.substr(3), &name_length) || name_length > data.size()) {
        return Malformed("archive: BSD member name '", name_field, "' is longer than its data");
      }
      name = std::string(reinterpret_cast<const char*>(data.data()), name_length);
      name.resize(std::strlen(name.c_str()));  // BSD pads the name with NULs
      data = data.subspan(name_length);
    } else {
      absl::string_view short_name = name_field;
      if (!short_name.empty() && short_name.back() == '/') short_name.remove_suffix(1);
      name = std::string(short_name);
    }
    members.push_back(ArchiveMember{std::move(name), data});
  }
  return members;
}

}  // namespace streamhal
