{
  "variables": {
    "have_graphblas%": "<!(test -f /usr/include/GraphBLAS.h -o -f /usr/include/suitesparse/GraphBLAS.h && echo 1 || echo 0)",
    "have_openblas%": "<!(node ../../scripts/blas-config.cjs enabled)",
    "openblas_include%": "<!(node ../../scripts/blas-config.cjs include)"
  },
  "targets": [
    {
      "target_name": "dype_bench_refs",
      "sources": ["references.cc"],
      "include_dirs": [
        "<!(node -p \"require('node-addon-api').include_dir\")",
        "/usr/include/eigen3"
      ],
      "defines": ["NAPI_VERSION=8", "NODE_ADDON_API_DISABLE_DEPRECATED", "EIGEN_NO_DEBUG"],
      "cflags!": ["-fno-exceptions"],
      "cflags_cc!": ["-fno-exceptions", "-std=gnu++17"],
      "cflags_cc": ["-std=c++17", "-fexceptions", "-O3", "-march=native", "-fopenmp", "-Wno-deprecated-declarations"],
      "ldflags": ["-fopenmp"],
      "conditions": [
        ["have_openblas==1", {
          "sources": ["blas.cc"],
          "include_dirs": ["<(openblas_include)"],
          "defines": ["DYPE_HAVE_OPENBLAS"],
          "libraries": ["-lopenblas"]
        }],
        ["have_graphblas==1", {
          "sources": ["graphblas.cc"],
          "include_dirs": ["/usr/include/suitesparse"],
          "defines": ["DYPE_HAVE_GRAPHBLAS"],
          "libraries": ["-lgraphblas"]
        }]
      ]
    }
  ]
}
