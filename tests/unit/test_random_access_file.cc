// Tests of opening local files (format/random_access_file): only regular files, without
// blocking on a FIFO; paths with NUL bytes refused; ReadSmallFile's size limit.
#include <doctest/doctest.h>

#include <sys/stat.h>

#include <chrono>
#include <fstream>
#include <string>

#include "format/common/error.h"
#include "format/io/random_access_file.h"
#include "tests/unit/fifo_rescuer.h"
#include "tests/unit/temp_dir.h"

using parquet::OpenLocalFile;
using parquet::ParquetError;
using parquet::ReadSmallFile;
using test_support::TempDir;

TEST_CASE("random access file: a FIFO or a device is refused at once, a regular file opens") {
  TempDir dir;
  const std::string fifo = dir.File("fifo.parquet");
  REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
  // Without O_NONBLOCK the open would wait for a writer (the rescuer provides one).
  double seconds = 0;
  std::string error;
  {
    test_support::FifoRescuer rescuer(fifo);
    const auto start = std::chrono::steady_clock::now();
    try {
      OpenLocalFile(fifo);
    } catch (const ParquetError& e) {
      error = e.what();
    }
    seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  }
  CHECK(seconds < 2.0);
  CHECK(error == "cannot open '" + fifo + "': not a regular file");

  CHECK_THROWS_WITH_AS(OpenLocalFile("/dev/null"), "cannot open '/dev/null': not a regular file", ParquetError);
  CHECK_THROWS_WITH_AS(OpenLocalFile(dir.path()), ("cannot open '" + dir.path() + "': it is a directory").c_str(),
                       ParquetError);

  const std::string regular = dir.File("data.bin");
  { std::ofstream(regular, std::ios::binary) << "0123456789"; }
  auto file = OpenLocalFile(regular);
  CHECK(file->Size() == 10);
  uint8_t bytes[4];
  file->ReadAt(3, 4, bytes);  // blocking reads again after the non-blocking open
  CHECK(std::string(reinterpret_cast<char*>(bytes), 4) == "3456");
}

TEST_CASE("random access file: a path with a NUL byte is refused") {
  TempDir dir;
  const std::string notes = dir.File("notes.txt");
  { std::ofstream(notes) << "text"; }
  const std::string path = notes + std::string(1, '\0') + ".parquet";
  CHECK(parquet::PathNulByteError(path) == "path '" + notes + "\\0.parquet' contains a NUL byte");
  CHECK(parquet::PathNulByteError(notes).empty());
  CHECK_THROWS_WITH_AS(OpenLocalFile(path), ("path '" + notes + "\\0.parquet' contains a NUL byte").c_str(),
                       ParquetError);
}

TEST_CASE("random access file: ReadSmallFile reads a whole small file and refuses a larger one") {
  TempDir dir;
  const std::string path = dir.File("keys.json");
  { std::ofstream(path) << "{\"a\": 1}"; }
  CHECK(ReadSmallFile(path, 8) == "{\"a\": 1}");
  CHECK_THROWS_WITH_AS(ReadSmallFile(path, 7), ("cannot read " + path + ": larger than 7 bytes").c_str(), ParquetError);
  CHECK_THROWS_AS(ReadSmallFile(dir.path(), 100), ParquetError);
}
