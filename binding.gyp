{
  "variables": {
    "dype_arch_flags": "<!(node -p \"process.env.DYPE_PORTABLE ? '-mtune=generic' : '-march=native'\")",
    "dype_sanitize": "<!(node -p \"process.env.DYPE_SANITIZE ? '1' : '0'\")"
  },
  "targets": [
    {
      "target_name": "dype_native",
      "sources": [
        "native/src/addon.cc",
        "native/src/thread_pool.cc",
        "native/src/kernels/spmm.cc",
        "native/src/kernels/bfs.cc",
        "<!@(node -p \"require('fs').readdirSync('native/src/sim').filter(f => f.endsWith('.cc')).sort().map(f => 'native/src/sim/' + f).join(' ')\")"
      ],
      "include_dirs": ["<!(node -p \"require('node-addon-api').include_dir\")", "native/src"],
      "defines": ["NAPI_VERSION=8", "NODE_ADDON_API_DISABLE_DEPRECATED"],
      "cflags!": ["-fno-exceptions"],
      "cflags_cc!": ["-fno-exceptions", "-std=gnu++17"],
      "cflags_cc": ["-std=c++17", "-fexceptions", "-Wall", "-Wextra", "-Wno-unused-parameter", "<(dype_arch_flags)"],
      "conditions": [
        ["dype_sanitize==1", {
          "cflags!": ["-O3"],
          "cflags_cc": ["-O1", "-g", "-fno-omit-frame-pointer", "-fsanitize=address,undefined", "-fno-sanitize-recover=undefined"],
          "ldflags": ["-fsanitize=address,undefined"]
        }, {
          "cflags_cc": ["-O3"]
        }]
      ],
      "xcode_settings": {"GCC_ENABLE_CPP_EXCEPTIONS": "YES", "CLANG_CXX_LANGUAGE_STANDARD": "c++17"}
    }
  ]
}
