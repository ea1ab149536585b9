// Small C helpers for the Z3 binding: they keep Z3 details (the error
// handler, batched reference drops, node inspection) on the C side and
// cut the number of cgo calls per operation.
#ifndef STG_Z3GLUE_H
#define STG_Z3GLUE_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <z3.h>

// Exported by libz3 4.8.12 but missing from its header.
extern uint64_t Z3_get_estimated_alloc_size(void);

// stg_node gathers what the decoder needs about one node in one call.
typedef struct {
	Z3_ast_kind  kind;
	Z3_decl_kind declKind; // apps and numerals
	unsigned     nargs;    // apps
	unsigned     declID;   // apps: the id of the function declaration
	Z3_sort_kind sortKind;
	unsigned     sortID;
} stg_node;

Z3_context stg_mk_context(void);
void stg_solver_quiet(Z3_context c, Z3_solver s);
int stg_sigint_onstack(void);
void stg_dec_refs(Z3_context c, Z3_ast *as, size_t n);
void stg_node_info(Z3_context c, Z3_ast a, stg_node *n);
Z3_ast stg_arg(Z3_context c, Z3_ast a, unsigned i);
unsigned stg_recognized_id(Z3_context c, Z3_ast a);
uint64_t stg_solver_rlimit(Z3_context c, Z3_solver s);
void stg_set_rlimit(Z3_context c, unsigned rlimit);

#endif
