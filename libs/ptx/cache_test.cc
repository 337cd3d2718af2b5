#include "ptx/cache.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <array>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>
#include <string>

#include "ptx/translate.h"

namespace streamhal::ptx {
namespace {

namespace fs = std::filesystem;

std::string ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

void WriteFile(const std::string& path, const std::string& bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << bytes;
}

std::string Hex(const std::array<uint8_t, 32>& digest) {
  std::string out;
  for (uint8_t b : digest) {
    static constexpr char kDigits[] = "0123456789abcdef";
    out.push_back(kDigits[b >> 4]);
    out.push_back(kDigits[b & 15]);
  }
  return out;
}

constexpr std::string_view kDevice = "uuid=00112233 driver=llvmpipe version=1";

// Each test gets an empty cache directory of its own under the test
// temporary directory; nothing goes near the user's real cache.
class TranslationCacheTest : public testing::Test {
 protected:
  void SetUp() override {
    std::string pattern = testing::TempDir() + "/streamhal_ptx_cache_XXXXXX";
    ASSERT_NE(mkdtemp(pattern.data()), nullptr);
    dir_ = pattern;
    ptx_ = ReadFile(std::string(STREAMHAL_PTX_CORPUS_DIR) + "/vector_add.ptx");
    ASSERT_FALSE(ptx_.empty());
    auto spirv = TranslatePtx(ptx_);
    ASSERT_TRUE(spirv.ok()) << spirv.status();
    spirv_ = *spirv;
  }
  void TearDown() override {
    std::error_code ignored;
    fs::permissions(dir_, fs::perms::owner_all, ignored);
    fs::remove_all(dir_, ignored);
  }

  CacheSettings Settings() const {
    CacheSettings settings;
    settings.enabled = true;
    settings.directory = dir_ + "/nested/cache";
    return settings;
  }

  std::string dir_;
  std::string ptx_;
  std::vector<uint32_t> spirv_;
};

TEST(Sha256Test, MatchesPublishedDigests) {
  EXPECT_EQ(Hex(Sha256("")), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  EXPECT_EQ(Hex(Sha256("abc")), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  // Two blocks of padding (56 bytes of message).
  EXPECT_EQ(Hex(Sha256("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq")),
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
  EXPECT_EQ(Hex(Sha256(std::string(1000000, 'a'))),
            "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

TEST_F(TranslationCacheTest, FirstLoadMissesAndTranslates) {
  auto result = TranslatePtxCached(ptx_, kDevice, Settings());
  ASSERT_TRUE(result.ok()) << result.status();
  EXPECT_FALSE(result->from_cache);
  EXPECT_EQ(result->spirv, spirv_);
  EXPECT_TRUE(fs::is_regular_file(TranslationCache(Settings()).EntryPath(ptx_, kDevice)));
}

TEST_F(TranslationCacheTest, SecondLoadHitsWithTheSameSpirv) {
  ASSERT_TRUE(TranslatePtxCached(ptx_, kDevice, Settings()).ok());
  auto second = TranslatePtxCached(ptx_, kDevice, Settings());
  ASSERT_TRUE(second.ok()) << second.status();
  EXPECT_TRUE(second->from_cache);
  EXPECT_EQ(second->spirv, spirv_);
}

TEST_F(TranslationCacheTest, HitServesTheStoredEntryNotATranslation) {
  // A stored module for this key is what a hit returns (the translator is
  // not run): store a different valid module and read it back.
  const TranslationCache cache(Settings());
  std::vector<uint32_t> other = spirv_;
  other.push_back(0x00010000);  // an extra OpNop word
  ASSERT_TRUE(cache.Store(ptx_, kDevice, other));
  auto result = TranslatePtxCached(ptx_, kDevice, Settings());
  ASSERT_TRUE(result.ok());
  EXPECT_TRUE(result->from_cache);
  EXPECT_EQ(result->spirv, other);
}

TEST_F(TranslationCacheTest, DisabledCacheNeitherReadsNorWrites) {
  ASSERT_TRUE(TranslatePtxCached(ptx_, kDevice, Settings()).ok());
  CacheSettings disabled = Settings();
  disabled.enabled = false;
  auto result = TranslatePtxCached(ptx_, kDevice, disabled);
  ASSERT_TRUE(result.ok());
  EXPECT_FALSE(result->from_cache);
  EXPECT_EQ(result->spirv, spirv_);

  CacheSettings fresh = Settings();
  fresh.directory = dir_ + "/never";
  fresh.enabled = false;
  ASSERT_TRUE(TranslatePtxCached(ptx_, kDevice, fresh).ok());
  EXPECT_FALSE(fs::exists(dir_ + "/never"));
}

TEST_F(TranslationCacheTest, CorruptEntryIsAMissAndIsRewritten) {
  ASSERT_TRUE(TranslatePtxCached(ptx_, kDevice, Settings()).ok());
  const std::string path = TranslationCache(Settings()).EntryPath(ptx_, kDevice);
  std::string bytes = ReadFile(path);
  ASSERT_GT(bytes.size(), 200u);
  bytes[150] ^= 0x5a;  // a payload byte: the checksum no longer matches
  WriteFile(path, bytes);
  auto result = TranslatePtxCached(ptx_, kDevice, Settings());
  ASSERT_TRUE(result.ok());
  EXPECT_FALSE(result->from_cache);
  EXPECT_EQ(result->spirv, spirv_);
  // Rewritten whole: the next load hits.
  auto again = TranslatePtxCached(ptx_, kDevice, Settings());
  ASSERT_TRUE(again.ok());
  EXPECT_TRUE(again->from_cache);
  EXPECT_EQ(again->spirv, spirv_);
}

TEST_F(TranslationCacheTest, TruncatedOrEmptyEntryIsAMiss) {
  ASSERT_TRUE(TranslatePtxCached(ptx_, kDevice, Settings()).ok());
  const std::string path = TranslationCache(Settings()).EntryPath(ptx_, kDevice);
  const std::string bytes = ReadFile(path);
  for (size_t keep : {size_t{0}, size_t{40}, size_t{64}, bytes.size() - 4}) {
    WriteFile(path, bytes.substr(0, keep));
    auto result = TranslatePtxCached(ptx_, kDevice, Settings());
    ASSERT_TRUE(result.ok());
    EXPECT_FALSE(result->from_cache) << "kept " << keep << " bytes";
    EXPECT_EQ(result->spirv, spirv_);
  }
}

TEST_F(TranslationCacheTest, EntryOfAnotherKeyUnderThisNameIsAMiss) {
  // An entry copied over another key's file (its header names its own key).
  const TranslationCache cache(Settings());
  const std::string other_ptx = ptx_ + "\n// another module\n";
  ASSERT_TRUE(cache.Store(other_ptx, kDevice, spirv_));
  fs::copy_file(cache.EntryPath(other_ptx, kDevice), cache.EntryPath(ptx_, kDevice),
                fs::copy_options::overwrite_existing);
  EXPECT_FALSE(cache.Load(ptx_, kDevice).has_value());
  EXPECT_TRUE(cache.Load(other_ptx, kDevice).has_value());
}

TEST_F(TranslationCacheTest, DifferentTextOrDeviceIsADifferentEntry) {
  ASSERT_TRUE(TranslatePtxCached(ptx_, kDevice, Settings()).ok());
  const TranslationCache cache(Settings());
  EXPECT_TRUE(cache.Load(ptx_, kDevice).has_value());
  EXPECT_FALSE(cache.Load(ptx_, "uuid=ffeeddcc driver=other version=2").has_value());
  EXPECT_FALSE(cache.Load(ptx_ + " ", kDevice).has_value());
  EXPECT_NE(cache.EntryPath(ptx_, kDevice), cache.EntryPath(ptx_, "other"));
  auto other_device = TranslatePtxCached(ptx_, "other", Settings());
  ASSERT_TRUE(other_device.ok());
  EXPECT_FALSE(other_device->from_cache);
}

TEST_F(TranslationCacheTest, DirectoryThatIsAFileDisablesCachingSilently) {
  WriteFile(dir_ + "/file", "x");
  CacheSettings settings = Settings();
  for (const char* directory : {"/file", "/file/below"}) {
    settings.directory = dir_ + directory;
    auto result = TranslatePtxCached(ptx_, kDevice, settings);
    ASSERT_TRUE(result.ok()) << result.status();
    EXPECT_FALSE(result->from_cache);
    EXPECT_EQ(result->spirv, spirv_);
  }
  EXPECT_EQ(ReadFile(dir_ + "/file"), "x");
}

TEST_F(TranslationCacheTest, ReadOnlyDirectoryDisablesCachingSilently) {
  if (geteuid() == 0) GTEST_SKIP() << "root writes into read-only directories";
  ASSERT_TRUE(fs::create_directories(dir_ + "/ro"));
  fs::permissions(dir_ + "/ro", fs::perms::owner_read | fs::perms::owner_exec);
  CacheSettings settings = Settings();
  settings.directory = dir_ + "/ro/cache";
  for (int i = 0; i < 2; ++i) {
    auto result = TranslatePtxCached(ptx_, kDevice, settings);
    ASSERT_TRUE(result.ok()) << result.status();
    EXPECT_FALSE(result->from_cache);
    EXPECT_EQ(result->spirv, spirv_);
  }
}

TEST_F(TranslationCacheTest, TranslationErrorsAreNotCached) {
  const std::string bad = ".version 7.5\n.target sm_75\n.address_size 64\n.entry k() { bogus; }\n";
  auto first = TranslatePtxCached(bad, kDevice, Settings());
  EXPECT_FALSE(first.ok());
  EXPECT_FALSE(fs::exists(TranslationCache(Settings()).EntryPath(bad, kDevice)));
}

TEST_F(TranslationCacheTest, LeavesNoTemporaryFiles) {
  ASSERT_TRUE(TranslatePtxCached(ptx_, kDevice, Settings()).ok());
  ASSERT_TRUE(TranslatePtxCached(ptx_ + "\n", kDevice, Settings()).ok());
  int files = 0;
  for (const auto& entry : fs::directory_iterator(Settings().directory)) {
    EXPECT_EQ(entry.path().extension(), ".spvc") << entry.path();
    ++files;
  }
  EXPECT_EQ(files, 2);
}

TEST_F(TranslationCacheTest, MaxSizeEvictsTheLeastRecentlyUsed) {
  CacheSettings settings = Settings();
  const uint64_t entry_bytes = 64 + spirv_.size() * 4;
  settings.max_bytes = 2 * entry_bytes + entry_bytes / 2;  // room for two
  const TranslationCache cache(settings);
  ASSERT_TRUE(cache.Store("a", kDevice, spirv_));
  ASSERT_TRUE(cache.Store("b", kDevice, spirv_));
  // Make "a" the older entry by time, then use it so "b" is the oldest.
  struct timespec old_times[2] = {{1000, 0}, {1000, 0}};
  ASSERT_EQ(utimensat(AT_FDCWD, cache.EntryPath("b", kDevice).c_str(), old_times, 0), 0);
  ASSERT_TRUE(cache.Load("a", kDevice).has_value());
  ASSERT_TRUE(cache.Store("c", kDevice, spirv_));
  EXPECT_TRUE(cache.Load("a", kDevice).has_value());
  EXPECT_FALSE(cache.Load("b", kDevice).has_value());
  EXPECT_TRUE(cache.Load("c", kDevice).has_value());
  // An entry larger than the whole cache is not stored.
  settings.max_bytes = entry_bytes - 1;
  EXPECT_FALSE(TranslationCache(settings).Store("d", kDevice, spirv_));
}

// Restores the variables FromEnvironment reads.
class CacheEnvironmentTest : public testing::Test {
 protected:
  void SetUp() override {
    for (const char* name : kNames) {
      const char* value = std::getenv(name);
      saved_.emplace_back(name, value == nullptr ? std::optional<std::string>()
                                                 : std::optional<std::string>(value));
      unsetenv(name);
    }
  }
  void TearDown() override {
    for (const auto& [name, value] : saved_) {
      if (value.has_value()) {
        setenv(name.c_str(), value->c_str(), 1);
      } else {
        unsetenv(name.c_str());
      }
    }
  }
  static constexpr const char* kNames[] = {"CUDA_CACHE_DISABLE", "CUDA_CACHE_PATH",
                                           "CUDA_CACHE_MAXSIZE", "XDG_CACHE_HOME", "HOME"};
  std::vector<std::pair<std::string, std::optional<std::string>>> saved_;
};

TEST_F(CacheEnvironmentTest, CudaCachePathChoosesTheDirectory) {
  setenv("HOME", "/home/someone", 1);
  setenv("CUDA_CACHE_PATH", "/somewhere/cache", 1);
  const CacheSettings settings = CacheSettings::FromEnvironment();
  EXPECT_TRUE(settings.enabled);
  EXPECT_EQ(settings.directory, "/somewhere/cache");
  EXPECT_EQ(settings.max_bytes, uint64_t{1} << 30);
}

TEST_F(CacheEnvironmentTest, DefaultsToXdgCacheHomeThenHome) {
  setenv("HOME", "/home/someone", 1);
  EXPECT_EQ(CacheSettings::FromEnvironment().directory, "/home/someone/.cache/streamhal/ptx");
  setenv("XDG_CACHE_HOME", "relative/ignored", 1);
  EXPECT_EQ(CacheSettings::FromEnvironment().directory, "/home/someone/.cache/streamhal/ptx");
  setenv("XDG_CACHE_HOME", "/xdg", 1);
  EXPECT_EQ(CacheSettings::FromEnvironment().directory, "/xdg/streamhal/ptx");
  unsetenv("XDG_CACHE_HOME");
  unsetenv("HOME");
  EXPECT_FALSE(CacheSettings::FromEnvironment().enabled);
}

TEST_F(CacheEnvironmentTest, CudaCacheDisableTurnsItOff) {
  setenv("CUDA_CACHE_PATH", "/somewhere/cache", 1);
  setenv("CUDA_CACHE_DISABLE", "1", 1);
  EXPECT_FALSE(CacheSettings::FromEnvironment().enabled);
  setenv("CUDA_CACHE_DISABLE", "0", 1);
  EXPECT_TRUE(CacheSettings::FromEnvironment().enabled);
}

TEST_F(CacheEnvironmentTest, CudaCacheMaxsizeIsReadAndCapped) {
  setenv("CUDA_CACHE_PATH", "/somewhere/cache", 1);
  setenv("CUDA_CACHE_MAXSIZE", "1048576", 1);
  EXPECT_EQ(CacheSettings::FromEnvironment().max_bytes, 1048576u);
  setenv("CUDA_CACHE_MAXSIZE", "99999999999", 1);
  EXPECT_EQ(CacheSettings::FromEnvironment().max_bytes, uint64_t{4} << 30);
  setenv("CUDA_CACHE_MAXSIZE", "lots", 1);
  EXPECT_EQ(CacheSettings::FromEnvironment().max_bytes, uint64_t{1} << 30);
}

}  // namespace
}  // namespace streamhal::ptx
