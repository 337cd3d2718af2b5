#include "core/host_object.h"

#include <elf.h>

#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "core/code_object.h"
#include "core/status.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace streamhal {
namespace {

using ::testing::HasSubstr;

std::vector<uint8_t> Bytes(const std::string& s) {
  return std::vector<uint8_t>(s.begin(), s.end());
}

// An NVIDIA fat binary header claiming `entries` bytes, followed by them.
std::vector<uint8_t> FatBinary(uint8_t fill, uint64_t entries) {
  std::vector<uint8_t> out(16 + entries, fill);
  const uint32_t magic = kNvFatBinaryMagic;
  const uint16_t version = 1, header = 16;
  std::memcpy(out.data(), &magic, 4);
  std::memcpy(out.data() + 4, &version, 2);
  std::memcpy(out.data() + 6, &header, 2);
  std::memcpy(out.data() + 8, &entries, 8);
  return out;
}

// A relocatable ELF64 with the given (name, contents) sections after the null
// section, then the name table.
std::vector<uint8_t> Elf(
    const std::vector<std::pair<std::string, std::vector<uint8_t>>>& sections) {
  std::string names(1, '\0');
  std::vector<uint8_t> out(sizeof(Elf64_Ehdr));
  std::vector<Elf64_Shdr> headers(1);
  auto add = [&](const std::string& name, const std::vector<uint8_t>& data, uint32_t type) {
    Elf64_Shdr h{};
    h.sh_name = static_cast<uint32_t>(names.size());
    names += name + '\0';
    h.sh_type = type;
    h.sh_offset = out.size();
    h.sh_size = data.size();
    out.insert(out.end(), data.begin(), data.end());
    headers.push_back(h);
  };
  for (const auto& [name, data] : sections) add(name, data, SHT_PROGBITS);
  add(".shstrtab", {}, SHT_STRTAB);
  headers.back().sh_offset = out.size();
  headers.back().sh_size = names.size();
  out.insert(out.end(), names.begin(), names.end());
  Elf64_Ehdr e{};
  std::memcpy(e.e_ident, ELFMAG, SELFMAG);
  e.e_ident[EI_CLASS] = ELFCLASS64;
  e.e_ident[EI_DATA] = ELFDATA2LSB;
  e.e_ident[EI_VERSION] = EV_CURRENT;
  e.e_type = ET_REL;
  e.e_machine = EM_X86_64;
  e.e_version = EV_CURRENT;
  e.e_ehsize = sizeof(Elf64_Ehdr);
  e.e_shentsize = sizeof(Elf64_Shdr);
  e.e_shnum = static_cast<uint16_t>(headers.size());
  e.e_shstrndx = static_cast<uint16_t>(headers.size() - 1);
  while (out.size() % 8 != 0) out.push_back(0);
  e.e_shoff = out.size();
  std::memcpy(out.data(), &e, sizeof(e));
  for (const Elf64_Shdr& h : headers) {
    const auto* p = reinterpret_cast<const uint8_t*>(&h);
    out.insert(out.end(), p, p + sizeof(h));
  }
  return out;
}

Elf64_Ehdr& Header(std::vector<uint8_t>& elf) { return *reinterpret_cast<Elf64_Ehdr*>(elf.data()); }
Elf64_Shdr& Section(std::vector<uint8_t>& elf, size_t i) {
  return *reinterpret_cast<Elf64_Shdr*>(elf.data() + Header(elf).e_shoff + i * sizeof(Elf64_Shdr));
}

// A GNU archive: (name, data) members, long names through "//".
std::vector<uint8_t> Archive(
    const std::vector<std::pair<std::string, std::vector<uint8_t>>>& members,
    bool symbol_table = true) {
  std::string out = "!<arch>\n";
  auto member = [&](const std::string& name, const std::string& data) {
    char header[61];
    std::snprintf(header, sizeof(header), "%-16s%-12s%-6s%-6s%-8s%-10zu`\n", name.c_str(), "0", "0",
                  "0", "644", data.size());
    out += std::string(header, 60) + data;
    if (out.size() % 2 != 0) out += '\n';
  };
  if (symbol_table) member("/", std::string("\0\0\0\0", 4));
  std::string long_names;
  std::vector<std::string> field_names;
  for (const auto& [name, data] : members) {
    if (name.size() < 16) {
      field_names.push_back(name + "/");
    } else {
      field_names.push_back("/" + std::to_string(long_names.size()));
      long_names += name + "/\n";
    }
  }
  if (!long_names.empty()) member("//", long_names);
  for (size_t i = 0; i < members.size(); ++i) {
    member(field_names[i], std::string(members[i].second.begin(), members[i].second.end()));
  }
  return Bytes(out);
}

ErrorCode CodeOf(const absl::Status& status) { return ErrorCodeOf(status); }

TEST(HostObjectTest, FindsTheFatBinariesOfBothDeviceCodeSections) {
  const std::vector<uint8_t> a = FatBinary(0x11, 24);
  std::vector<uint8_t> joined = FatBinary(0x22, 8);
  joined.insert(joined.end(), 8, 0);  // `ld -r` alignment padding
  const std::vector<uint8_t> c = FatBinary(0x33, 40);
  joined.insert(joined.end(), c.begin(), c.end());
  const std::vector<uint8_t> elf =
      Elf({{".text", Bytes("code")}, {kNvFatbinSection, a}, {kNvRelFatbinSection, joined}});
  absl::StatusOr<std::vector<ByteSpan>> found = HostObjectFatBinaries(elf);
  ASSERT_TRUE(found.ok()) << found.status();
  ASSERT_EQ(found->size(), 3u);
  EXPECT_EQ(std::vector<uint8_t>((*found)[0].begin(), (*found)[0].end()), a);
  EXPECT_EQ((*found)[1].size(), 24u);
  EXPECT_EQ((*found)[1][16], 0x22);
  EXPECT_EQ(std::vector<uint8_t>((*found)[2].begin(), (*found)[2].end()), c);
}

TEST(HostObjectTest, AnObjectWithoutDeviceCodeHasNoFatBinaries) {
  absl::StatusOr<std::vector<ByteSpan>> found = HostObjectFatBinaries(Elf({{".text", Bytes("x")}}));
  ASSERT_TRUE(found.ok()) << found.status();
  EXPECT_TRUE(found->empty());
}

TEST(HostObjectTest, MalformedObjectsAreInvalidImage) {
  const std::vector<uint8_t> good = Elf({{kNvFatbinSection, FatBinary(1, 8)}});
  ASSERT_TRUE(HostObjectFatBinaries(good).ok());
  auto expect_invalid = [](std::vector<uint8_t> elf, const char* what) {
    absl::StatusOr<std::vector<ByteSpan>> found = HostObjectFatBinaries(elf);
    EXPECT_EQ(CodeOf(found.status()), ErrorCode::kInvalidImage) << what;
  };
  for (size_t n : {size_t{0}, size_t{3}, size_t{40}, good.size() / 2, good.size() - 1}) {
    expect_invalid(std::vector<uint8_t>(good.begin(), good.begin() + n), "truncated");
  }
  std::vector<uint8_t> bad = good;
  bad[EI_CLASS] = ELFCLASS32;
  expect_invalid(bad, "32-bit");
  bad = good;
  Header(bad).e_shoff = ~uint64_t{0} - 8;
  expect_invalid(bad, "section headers past the end");
  bad = good;
  Header(bad).e_shnum = 0xfff0;
  expect_invalid(bad, "too many sections");
  bad = good;
  Header(bad).e_shstrndx = 7;
  expect_invalid(bad, "name table index");
  bad = good;
  Header(bad).e_shentsize = 32;
  expect_invalid(bad, "entry size");
  bad = good;
  Section(bad, 1).sh_name = 100000;
  expect_invalid(bad, "name offset");
  bad = good;
  Section(bad, 1).sh_offset = ~uint64_t{0};
  expect_invalid(bad, "section offset");
  bad = good;
  Section(bad, 1).sh_size += 1u << 20;
  expect_invalid(bad, "section size");
  bad = good;
  Section(bad, 2).sh_size = 1u << 20;
  expect_invalid(bad, "name table size");
  // A fat binary whose header claims more than its section holds.
  std::vector<uint8_t> long_fatbin = FatBinary(1, 8);
  long_fatbin[8] = 200;
  expect_invalid(Elf({{kNvFatbinSection, long_fatbin}}), "fat binary past its section");
  expect_invalid(Elf({{kNvFatbinSection, Bytes("not a fat binary")}}), "no fat binary magic");
}

TEST(HostObjectTest, ReadsGnuArchivesWithLongNamesAndSymbolTables) {
  const std::vector<uint8_t> odd = Bytes("odd");
  const std::vector<uint8_t> even = Bytes("even");
  // Members view the archive's bytes, so the archive outlives them.
  const std::vector<uint8_t> archive =
      Archive({{"a.o", odd}, {"a_rather_long_member_name.o", even}, {"b.o", even}});
  absl::StatusOr<std::vector<ArchiveMember>> members = ReadArchive(archive);
  ASSERT_TRUE(members.ok()) << members.status();
  ASSERT_EQ(members->size(), 3u);
  EXPECT_EQ((*members)[0].name, "a.o");
  EXPECT_EQ(std::vector<uint8_t>((*members)[0].data.begin(), (*members)[0].data.end()), odd);
  EXPECT_EQ((*members)[1].name, "a_rather_long_member_name.o");
  EXPECT_EQ(std::vector<uint8_t>((*members)[1].data.begin(), (*members)[1].data.end()), even);
  EXPECT_EQ((*members)[2].name, "b.o");
  // The last member's padding may be missing.
  std::vector<uint8_t> unpadded = Archive({{"a.o", odd}}, false);
  ASSERT_EQ(unpadded.back(), '\n');
  unpadded.pop_back();
  members = ReadArchive(unpadded);
  ASSERT_TRUE(members.ok()) << members.status();
  EXPECT_EQ(members->size(), 1u);
  // An empty archive has no members.
  const std::vector<uint8_t> empty = Bytes("!<arch>\n");
  members = ReadArchive(empty);
  ASSERT_TRUE(members.ok()) << members.status();
  EXPECT_TRUE(members->empty());
}

TEST(HostObjectTest, ReadsBsdMemberNames) {
  std::string bsd = "!<arch>\n";
  char header[61];
  std::snprintf(header, sizeof(header), "%-16s%-12s%-6s%-6s%-8s%-10d`\n", "#1/20", "0", "0", "0",
                "644", 24);
  bsd += std::string(header, 60) + std::string("long_bsd_name.o\0\0\0\0\0", 20) + "data";
  const std::vector<uint8_t> archive = Bytes(bsd);
  absl::StatusOr<std::vector<ArchiveMember>> members = ReadArchive(archive);
  ASSERT_TRUE(members.ok()) << members.status();
  ASSERT_EQ(members->size(), 1u);
  EXPECT_EQ((*members)[0].name, "long_bsd_name.o");
  EXPECT_EQ(std::string((*members)[0].data.begin(), (*members)[0].data.end()), "data");
}

TEST(HostObjectTest, MalformedArchivesAreInvalidImage) {
  const std::vector<uint8_t> good =
      Archive({{"a.o", Bytes("abc")}, {"a_rather_long_member_name.o", Bytes("de")}});
  ASSERT_TRUE(ReadArchive(good).ok());
  auto expect_invalid = [](const std::vector<uint8_t>& archive, const char* what) {
    EXPECT_EQ(CodeOf(ReadArchive(archive).status()), ErrorCode::kInvalidImage) << what;
  };
  for (size_t n : {size_t{0}, size_t{7}, size_t{20}, size_t{70}, good.size() - 3}) {
    expect_invalid(std::vector<uint8_t>(good.begin(), good.begin() + n), "truncated");
  }
  expect_invalid(Bytes("!<thin>\n"), "thin");
  expect_invalid(std::vector<uint8_t>(100, 0xab), "garbage");
  std::vector<uint8_t> bad = good;
  bad[8 + 58] = 'x';  // the first member header's "`\n"
  expect_invalid(bad, "header terminator");
  bad = good;
  std::memcpy(bad.data() + 8 + 48, "99999999  ", 10);
  expect_invalid(bad, "size past the end");
  bad = good;
  std::memcpy(bad.data() + 8 + 48, "12a       ", 10);
  expect_invalid(bad, "size not a number");
  // A long name pointing outside the table, or with no table.
  expect_invalid(Bytes(std::string("!<arch>\n") + "/5              0           0     0     644     "
                                                  "2         `\nab"),
                 "long name without a table");
}

TEST(HostObjectTest, TellsObjectsAndArchivesApart) {
  EXPECT_TRUE(IsElfFile(Elf({})));
  EXPECT_FALSE(IsElfFile(Bytes("!<arch>\n")));
  EXPECT_TRUE(IsArchive(Bytes("!<arch>\n")));
  EXPECT_TRUE(IsArchive(Bytes("!<thin>\n")));
  EXPECT_FALSE(IsArchive(Elf({})));
  EXPECT_FALSE(IsArchive(Bytes("!<arch")));
}

}  // namespace
}  // namespace streamhal
