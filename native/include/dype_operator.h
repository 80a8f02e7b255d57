/*
 * dype user operators: the C ABI (version 1).
 *
 * A shared library exports one function per operator implementation with the signature
 * dype_kernel_fn. dype loads it with dlopen, finds the symbol when the operator is defined, and
 * calls it on the host for output rows [row_begin, row_end) of a piece. Before every call dype
 * checks the operands (typed-array lengths against their shapes; CSR row pointers start at 0, never
 * decrease, end at the number of stored entries; column indices in [0, cols)) and sizes the output
 * buffer to exactly (row_end - row_begin) * out->cols elements. The function may read the operands
 * and write the output buffer, nothing else; it must not keep pointers after it returns.
 * A non-zero return value is an error: write a NUL-terminated message into `error` (at most
 * error_size bytes) and dype raises an OperatorError naming the operator with it. A crash in the
 * library (a segmentation fault) cannot be caught: it ends the process.
 */
#ifndef DYPE_OPERATOR_H
#define DYPE_OPERATOR_H

#include <stddef.h>
#include <stdint.h>

#define DYPE_OPERATOR_ABI 1

enum dype_operand_kind { DYPE_DENSE = 0, DYPE_CSR = 1 };
/* Element type, by size in bytes. */
enum dype_precision { DYPE_F32 = 4, DYPE_F64 = 8 };

typedef struct dype_operand {
  int32_t kind;            /* DYPE_DENSE or DYPE_CSR */
  int32_t precision;       /* element type of data (dense) or values (CSR); DYPE_F32 for a CSR pattern */
  int64_t rows, cols;
  const void* data;        /* DYPE_DENSE: rows * cols elements, row-major */
  const int64_t* row_ptr;  /* DYPE_CSR: rows + 1 offsets into col_idx and values */
  const int32_t* col_idx;  /* DYPE_CSR: row_ptr[rows] column indices */
  const void* values;      /* DYPE_CSR: row_ptr[rows] values, or NULL for a pattern (every value 1) */
} dype_operand;

typedef struct dype_output {
  int64_t rows;            /* row_end - row_begin */
  int64_t cols;
  int32_t precision;       /* DYPE_F32 or DYPE_F64 */
  void* data;              /* rows * cols elements, row-major: output row row_begin + r is row r here */
} dype_output;

typedef int32_t (*dype_kernel_fn)(const dype_operand* operands, int32_t count, int64_t row_begin, int64_t row_end,
                                  dype_output* out, char* error, size_t error_size);

#endif /* DYPE_OPERATOR_H */
