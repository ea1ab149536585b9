#include "z3glue.h"

#include <signal.h>
#include <stdio.h>
#include <string.h>

// Z3's default handler prints and calls exit(1). This one does nothing:
// a failing call then returns a null or default value and the error code
// stays readable until the next API call.
static void stg_ignore_error(Z3_context c, Z3_error_code e) {
	(void)c;
	(void)e;
}

Z3_context stg_mk_context(void) {
	Z3_config cfg = Z3_mk_config();
	if (cfg == NULL)
		return NULL;
	Z3_set_param_value(cfg, "model", "true");
	Z3_context c = Z3_mk_context_rc(cfg);
	Z3_del_config(cfg);
	if (c != NULL)
		Z3_set_error_handler(c, stg_ignore_error);
	return c;
}

// stg_solver_quiet turns off Z3's own Ctrl-C handling for the checks of
// s. Z3 4.8.12 installs a SIGINT handler for each check unless the
// solver's "ctrl_c" parameter is false (there is no global parameter of
// that name in this version), and restores the old one with signal(2),
// which drops SA_ONSTACK: the Go runtime then dies on the next signal
// ("non-Go code set up signal handler without SA_ONSTACK flag"). With
// the parameter off the Go runtime's handlers stay as they are and
// Z3_interrupt is the only way to stop a check.
void stg_solver_quiet(Z3_context c, Z3_solver s) {
	Z3_params p = Z3_mk_params(c);
	if (p == NULL)
		return;
	Z3_params_inc_ref(c, p);
	Z3_params_set_bool(c, p, Z3_mk_string_symbol(c, "ctrl_c"), false);
	Z3_solver_set_params(c, s, p);
	Z3_params_dec_ref(c, p);
}

void stg_dec_refs(Z3_context c, Z3_ast *as, size_t n) {
	for (size_t i = 0; i < n; i++)
		Z3_dec_ref(c, as[i]);
}

void stg_node_info(Z3_context c, Z3_ast a, stg_node *n) {
	n->kind = Z3_get_ast_kind(c, a);
	n->declKind = Z3_OP_UNINTERPRETED;
	n->nargs = 0;
	n->declID = 0;
	if (n->kind == Z3_APP_AST || n->kind == Z3_NUMERAL_AST) {
		Z3_app app = Z3_to_app(c, a);
		Z3_func_decl d = Z3_get_app_decl(c, app);
		n->declKind = Z3_get_decl_kind(c, d);
		n->nargs = Z3_get_app_num_args(c, app);
		n->declID = Z3_get_func_decl_id(c, d);
	}
	Z3_sort s = Z3_get_sort(c, a);
	n->sortKind = Z3_get_sort_kind(c, s);
	n->sortID = Z3_get_ast_id(c, Z3_sort_to_ast(c, s));
}

Z3_ast stg_arg(Z3_context c, Z3_ast a, unsigned i) {
	return Z3_get_app_arg(c, Z3_to_app(c, a), i);
}

// stg_recognized_id returns the id of the constructor that the
// recognizer application a, (is-C x), tests for.
unsigned stg_recognized_id(Z3_context c, Z3_ast a) {
	Z3_func_decl d = Z3_get_app_decl(c, Z3_to_app(c, a));
	Z3_func_decl k = Z3_get_decl_func_decl_parameter(c, d, 0);
	return k == NULL ? 0 : Z3_get_func_decl_id(c, k);
}

// stg_sigint_onstack says whether SIGINT's handler has SA_ONSTACK.
int stg_sigint_onstack(void) {
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	if (sigaction(SIGINT, NULL, &sa) != 0)
		return 0;
	return (sa.sa_flags & SA_ONSTACK) != 0;
}

// stg_solver_rlimit returns the "rlimit count" statistic of s: the
// resource units its checks have used.
uint64_t stg_solver_rlimit(Z3_context c, Z3_solver s) {
	Z3_stats st = Z3_solver_get_statistics(c, s);
	if (st == NULL)
		return 0;
	Z3_stats_inc_ref(c, st);
	uint64_t n = 0;
	unsigned size = Z3_stats_size(c, st);
	for (unsigned i = 0; i < size; i++) {
		if (strcmp(Z3_stats_get_key(c, st, i), "rlimit count") == 0) {
			n = Z3_stats_is_uint(c, st, i) ? Z3_stats_get_uint_value(c, st, i)
			                               : (uint64_t)Z3_stats_get_double_value(c, st, i);
			break;
		}
	}
	Z3_stats_dec_ref(c, st);
	return n;
}

// stg_set_rlimit sets the resource limit of each later check and tactic
// application of c (0: none).
void stg_set_rlimit(Z3_context c, unsigned rlimit) {
	char buf[32];
	snprintf(buf, sizeof buf, "%u", rlimit);
	Z3_update_param_value(c, "rlimit", buf);
}
