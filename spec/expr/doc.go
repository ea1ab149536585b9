// Package expr is the expression language of stg's models: the typed
// syntax tree (Expr and its nodes), the reading of expression text
// (Parse, ParseGuarded, ParseBool: Go's parser, then a type checker),
// printing (Format), values and exact evaluation (Value, Eval), the
// traversals (Children, Walk, Inspect, Transform, Rewrite, Substitute,
// Idents), linear forms (LinearOf) and the regular expressions of
// regexp.MatchString (CompileRegex, Members). It knows nothing of models
// or files: what an expression may name comes in through a Scope
// (variables, parameters, enum constants, functions, arrays), as go/types
// takes an Importer; package spec holds the models and package specfile
// their files. docs/reference.md#expressions is the user's contract.
//
// # Grammar
//
// An expression is a Go expression, read by go/parser with Go's
// precedence; the subset below is enforced on its syntax tree:
//
//	Expr    = Unary | Expr BinOp Expr .
//	BinOp   = "||" | "&&" | "==" | "!=" | "<" | "<=" | ">" | ">=" |
//	          "+" | "-" | "*" | "/" | "%" .
//	Unary   = [ "-" | "!" ] Primary .
//	Primary = int_lit | decimal_lit | string_lit | "true" | "false" |
//	          Name | Name "[" Expr "]" | Primary "[" Expr ":" Expr "]" |
//	          Call | "(" Expr ")" | "[" int_lit "]" Type "{" Exprs "}" .
//	Call    = Name "(" [ Exprs ] ")" | "strings" "." Name "(" Exprs ")" |
//	          "regexp" "." "MatchString" "(" string_lit "," Expr ")" .
//	Name    = identifier | identifier "." identifier .
//
// Names are variables, action parameters, enum constants and declared
// functions (a qualified c.x is a component's variable in a system); the
// built-ins are ite, min, max, abs, real and len.
//
// # Types and values
//
// Types are int, real, bool, string and enumerated types (Enum). Integer
// literals have any size and decimals are exact rationals; Eval computes
// with math/big, never with floating point: / and % on int are Euclidean
// (SMT-LIB's div and mod). An int and a real never mix silently: only an
// integer constant next to a real is a real, and real(x) is the Unary
// operator ToReal. Format prints an expression to text that parses back
// to the same tree.
//
// # Built-ins and functions
//
// ite(c, a, b) is the Cond node; min, max and abs are written with it
// when the text is read (min(a, b) is ite(a <= b, a, b)). A declared
// function (Func) is defined (its body is inlined at every call, so no
// Call to it survives parsing) or external: its Calls stay, the solver
// sees an uninterpreted function or the summaries of its table (Boudhiba,
// Gaston, Le Gall and Prévosto, "Symbolic execution of transition systems
// with function summaries", TAP 2017), and evaluation asks a Caller. An
// expression whose expansion exceeds 65,536 nodes is refused.
//
// # Strings
//
// A string is a sequence of bytes, as in Go: + concatenates, len counts
// bytes, comparisons are bytewise, strings.HasPrefix, HasSuffix, Contains
// and Index are Go's; s[i] is the one-byte string at i and s[i:j] a
// substring, defined when their indexes are in range (ParseGuarded
// returns those bounds; Eval gives SMT-LIB's str.at and str.substr values
// outside them). regexp.MatchString(P, s) takes a constant RE2 pattern,
// translated when the expression is read (CompileRegex: whole-string
// matching, classes over ASCII), evaluated by a Thompson automaton.
//
// # Arrays
//
// An array variable (ArrayVar) a: [N]T is N scalar cells a[0] ...
// a[N-1] (CellName). a[k] with a computed k is ite(k == 0, a[0], ...)
// (IndexChain), defined when 0 <= k < N; the update a[k] := v gives every
// cell the value ite(k == i, v, a[i]) (UpdateCell, recognised back by
// CellUpdate). Arrays are flattened before anything else sees them.
//
// # Errors
//
// Every problem is reported at its position (Pos, FILE:LINE:COL); the
// readers return an ErrorList, sorted, with all the problems found. A
// position inside an expression is the expression's own position moved
// by go/parser's line and column (Shift). Nothing here panics on any
// input.
package expr
