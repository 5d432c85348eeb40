// A minimal JSON object writer for the tools' --json reports (flat keys, numbers and strings).
#pragma once
#include <cstdint>
#include <sstream>
#include <string>
#include <vector>

namespace parascan::app {

class json_object {
 public:
  json_object& add(const std::string& key, const std::string& value) { return raw(key, quote(value)); }
  json_object& add(const std::string& key, const char* value) { return raw(key, quote(value)); }
  json_object& add(const std::string& key, bool value) { return raw(key, value ? "true" : "false"); }
  json_object& add(const std::string& key, double value) {
    std::ostringstream s;
    s.precision(10);
    s << value;
    return raw(key, s.str());
  }
  json_object& add(const std::string& key, std::int64_t value) { return raw(key, std::to_string(value)); }
  json_object& add(const std::string& key, int value) { return raw(key, std::to_string(value)); }
  /// Nested object or array, already serialised.
  json_object& raw(const std::string& key, const std::string& json) {
    fields_.push_back(quote(key) + ": " + json);
    return *this;
  }
  std::string str() const {
    std::string s = "{";
    for (std::size_t i = 0; i < fields_.size(); ++i) s += (i ? ", " : "") + fields_[i];
    return s + "}";
  }
  static std::string quote(const std::string& v) {
    std::string s = "\"";
    for (char c : v) {
      if (c == '"' || c == '\\') s += '\\', s += c;
      else if (c == '\n') s += "\\n";
      else if (static_cast<unsigned char>(c) < 0x20) s += ' ';
      else s += c;
    }
    return s + "\"";
  }

 private:
  std::vector<std::string> fields_;
};

/// Write `json` + newline to `path` ('-' = stdout), atomically for files.
void write_json(const std::string& path, const std::string& json);

}  // namespace parascan::app
