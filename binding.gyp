{
  "targets": [
    {
      "target_name": "dype_native",
      "sources": [ "native/src/addon.cc" ],
      "include_dirs": [ "<!(node -p \"require('node-addon-api').include_dir\")" ],
      "defines": [ "NAPI_VERSION=8", "NODE_ADDON_API_DISABLE_DEPRECATED" ],
      "cflags!": [ "-fno-exceptions" ],
      "cflags_cc!": [ "-fno-exceptions" ],
      "cflags_cc": [ "-std=c++17", "-O3", "-fexceptions" ],
      "xcode_settings": { "GCC_ENABLE_CPP_EXCEPTIONS": "YES", "CLANG_CXX_LANGUAGE_STANDARD": "c++17" }
    }
  ]
}
