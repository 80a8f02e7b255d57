{
  "variables": {
    "dype_arch_flags": "<!(node -p \"process.env.DYPE_PORTABLE ? '-mtune=generic' : '-march=native'\")",
    "dype_sanitize": "<!(node -p \"process.env.DYPE_SANITIZE ? '1' : '0'\")",
    "dype_cuda": "<!(node scripts/cuda-config.cjs enabled)",
    "dype_cuda_off": "<!(node scripts/cuda-config.cjs off)",
    "dype_nvcc": "<!(node scripts/cuda-config.cjs nvcc)",
    "dype_cuda_lib": "<!(node scripts/cuda-config.cjs lib)",
    "dype_blas": "<!(node scripts/blas-config.cjs enabled)",
    "dype_blas_off": "<!(node scripts/blas-config.cjs off)",
    "dype_blas_include": "<!(node scripts/blas-config.cjs include)",
    "dype_metis": "<!(node scripts/metis-config.cjs enabled)",
    "dype_metis_off": "<!(node scripts/metis-config.cjs off)",
    "dype_mpi": "<!(node scripts/mpi-config.cjs enabled)",
    "dype_mpi_off": "<!(node scripts/mpi-config.cjs off)",
    "dype_mpi_cflags": "<!(node scripts/mpi-config.cjs cflags)",
    "dype_mpi_libs": "<!(node scripts/mpi-config.cjs libs)"
  },
  "targets": [
    {
      "target_name": "dype_native",
      "sources": [
        "native/src/addon.cc",
        "native/src/thread_pool.cc",
        "native/src/host_lane.cc",
        "native/src/kernels/spmm.cc",
        "native/src/kernels/bfs.cc",
        "native/src/kernels/msbfs.cc",
        "native/src/kernels/dist_bfs.cc",
        "native/src/kernels/gemm.cc",
        "native/src/kernels/gemm_builtin.cc",
        "native/src/kernels/elementwise.cc",
        "native/src/kernels/sddmm.cc",
        "native/src/kernels/dense_binding.cc",
        "native/src/user_ops.cc",
        "native/src/partition_binding.cc",
        "native/src/shared_memory.cc",
        "native/src/input_scans.cc",
        "native/src/content_hash.cc",
        "native/src/memory_retention.cc",
        "native/src/cuda/gpu_binding.cc",
        "<!@(node -p \"require('fs').readdirSync('native/src/sim').filter(f => f.endsWith('.cc')).sort().map(f => 'native/src/sim/' + f).join(' ')\")"
      ],
      "include_dirs": ["<!(node -p \"require('node-addon-api').include_dir\")", "native/src"],
      "libraries": ["-ldl"],
      "defines": ["NAPI_VERSION=8", "NODE_ADDON_API_DISABLE_DEPRECATED"],
      "cflags!": ["-fno-exceptions"],
      "cflags_cc!": ["-fno-exceptions", "-std=gnu++17"],
      "cflags_cc": ["-std=c++17", "-fexceptions", "-Wall", "-Wextra", "-Wno-unused-parameter", "<(dype_arch_flags)", "-falign-functions=64", "-falign-loops=64"],
      "conditions": [
        ["dype_sanitize==1", {
          "cflags!": ["-O3"],
          "cflags_cc": ["-O1", "-g", "-fno-omit-frame-pointer", "-fsanitize=address,undefined", "-fno-sanitize-recover=undefined"],
          "ldflags": ["-fsanitize=address,undefined"]
        }, {
          "cflags_cc": ["-O3"]
        }],
        ["dype_blas==1", {
          "include_dirs": ["<(dype_blas_include)"],
          "defines": ["DYPE_HAVE_OPENBLAS=1"],
          "libraries": ["-lopenblas"]
        }, {
          "defines": ["DYPE_BLAS_OFF=<(dype_blas_off)"]
        }],
        ["dype_metis==1", {
          "defines": ["DYPE_HAVE_METIS=1"],
          "libraries": ["-lmetis"]
        }, {
          "defines": ["DYPE_METIS_OFF=<(dype_metis_off)"]
        }],
        ["dype_cuda==1", {
          "sources": ["native/src/cuda/kernels.cu", "native/src/cuda/runtime.cu", "native/src/cuda/staging.cu",
                      "native/src/cuda/resident.cu", "native/src/cuda/operators.cu",
                      "native/src/cuda/dense.cu", "native/src/cuda/cublas.cu"],
          "defines": ["DYPE_HAVE_CUDA=1"],
          "rules": [{
            "rule_name": "nvcc",
            "extension": "cu",
            "inputs": ["<(RULE_INPUT_PATH)", "native/src/cuda/kernels.cuh", "native/src/cuda/gpu.h",
                       "native/src/cuda/runtime_internal.cuh", "native/src/cuda/cublas_loader.cuh",
                       "native/src/kernels/dense.h", "native/src/cuda/kernels/common.cuh",
                       "native/src/cuda/kernels/spmm.cuh", "native/src/cuda/kernels/bfs.cuh", "native/src/cuda/kernels/msbfs.cuh"],
            "outputs": ["<(INTERMEDIATE_DIR)/<(RULE_INPUT_ROOT).o"],
            "message": "nvcc <(RULE_INPUT_PATH)",
            "process_outputs_as_sources": 1,
            "action": [
              "<(dype_nvcc)", "-std=c++17", "-O3", "-Xcompiler", "-fPIC", "-Inative/src",
              "-gencode", "arch=compute_80,code=sm_80",
              "-gencode", "arch=compute_90,code=sm_90",
              "-gencode", "arch=compute_90,code=compute_90",
              "-c", "<(RULE_INPUT_PATH)", "-o", "<@(_outputs)"
            ]
          }],
          "libraries": ["<(dype_cuda_lib)/libcudart_static.a", "-ldl", "-lrt", "-lpthread"]
        }, {
          "sources": ["native/src/cuda/runtime_stub.cc"],
          "defines": ["DYPE_CUDA_OFF=<(dype_cuda_off)"]
        }]
      ],
      "xcode_settings": {"GCC_ENABLE_CPP_EXCEPTIONS": "YES", "CLANG_CXX_LANGUAGE_STANDARD": "c++17"}
    },
    {
      "target_name": "dype_mpi",
      "sources": ["native/src/mpi/mpi_binding.cc", "native/src/mpi/mpi_collectives.cc"],
      "include_dirs": ["<!(node -p \"require('node-addon-api').include_dir\")", "native/src"],
      "defines": ["NAPI_VERSION=8", "NODE_ADDON_API_DISABLE_DEPRECATED"],
      "cflags!": ["-fno-exceptions"],
      "cflags_cc!": ["-fno-exceptions", "-std=gnu++17"],
      "cflags_cc": ["-std=c++17", "-fexceptions", "-O2", "-Wall", "-Wextra", "-Wno-unused-parameter"],
      "conditions": [
        ["dype_mpi==1", {
          "defines": ["DYPE_HAVE_MPI=1"],
          "cflags_cc": ["<!@(node scripts/mpi-config.cjs cflags)"],
          "libraries": ["<!@(node scripts/mpi-config.cjs libs)", "-ldl"]
        }, {
          "defines": ["DYPE_MPI_OFF=<(dype_mpi_off)"]
        }]
      ],
      "xcode_settings": {"GCC_ENABLE_CPP_EXCEPTIONS": "YES", "CLANG_CXX_LANGUAGE_STANDARD": "c++17"}
    }
  ]
}
