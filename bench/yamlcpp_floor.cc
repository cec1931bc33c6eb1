/// The yardstick for reading a YAML jobs file: yaml-cpp's YAML::LoadFile
/// builds the whole node tree; count the jobs to make sure it did.
///
///   rescfg-yamlcpp-floor FILE.yaml

#include <yaml-cpp/yaml.h>

#include <cstdio>

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: rescfg-yamlcpp-floor FILE.yaml\n");
    return 2;
  }
  try {
    YAML::Node root = YAML::LoadFile(argv[1]);
    std::printf("%zu jobs\n", root["jobs"].size());
  } catch (const YAML::Exception& e) {
    std::fprintf(stderr, "%s: %s\n", argv[1], e.what());
    return 1;
  }
  return 0;
}
