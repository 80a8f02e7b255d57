// The GraphBLAS references' entry point, present in the addon only when built with GraphBLAS.
#pragma once
#include <napi.h>

/** Calls GrB_init and adds GraphblasSpmm, GraphblasBfs, graphblasThreads and graphblasVersion to exports. */
void InitGraphBLAS(Napi::Env env, Napi::Object exports);
