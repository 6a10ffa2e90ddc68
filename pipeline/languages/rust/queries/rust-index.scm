; The repository index: definitions, calls and `use` declarations of one file.
; Only what `index.py` reads is captured (each capture is a Python object): `def.<kind>.node`
; is the whole item, `call` the call expression, `mcall.*` a name in a macro's tokens.

(function_item name: (identifier)) @def.fn.node
(function_signature_item name: (identifier)) @def.fn.node
(struct_item name: (type_identifier)) @def.struct.node
(enum_item name: (type_identifier)) @def.enum.node
(enum_variant name: (identifier)) @def.variant.node
(const_item name: (identifier)) @def.const.node
(static_item name: (identifier)) @def.static.node
(type_item name: (type_identifier)) @def.type.node
(trait_item name: (type_identifier)) @def.trait.node
(field_declaration name: (field_identifier)) @def.field.node
(impl_item) @impl
(use_declaration) @use
(let_declaration pattern: (identifier)) @let
; `let (ptr, end) = (r.start as *const i8, r.end as *const i8)`: names a cast types
(let_declaration pattern: (tuple_pattern) value: (tuple_expression (type_cast_expression))) @let
; `if let Some(E::V(x)) = ..`, `let E::V(x) = y else {..}`: `x` holds the variant's value
(let_condition pattern: (tuple_struct_pattern)) @letvariant
(let_declaration pattern: (tuple_struct_pattern)) @letvariant
(for_expression) @loop
; `GetOptions { format: s.parse()?, .. }`: the field's type's `from_str` (`index.py`)
(field_initializer
  field: (field_identifier)
  value: (try_expression (call_expression function: (field_expression field: (field_identifier) @_m (#any-of? @_m "parse" "try_into"))))) @fieldconv
; `config.and_then(|config| ..)`: the closure's parameter is the value `config` holds
(call_expression
  function: (field_expression value: (identifier) field: (field_identifier))
  arguments: (arguments (closure_expression parameters: (closure_parameters . (identifier) .)))) @combinator

(call_expression function: [(identifier)
                             (scoped_identifier name: (identifier))
                             (field_expression field: (field_identifier))
                             (generic_function)]) @call

; An enum variant built without a call (a call `E::V(..)` is a `call`): `E::V { .. }`, and
; `E::V` as an argument (`Err(E::V)`, `.map_err(E::V)`), a `let` or `return` value, a
; closure's body or a block's last expression, a method's receiver, an arm's or a field's value. `index.py` keeps those of an upper-case enum.
(struct_expression name: (scoped_type_identifier)) @build
(arguments (scoped_identifier name: (identifier) @_v (#match? @_v "^[A-Z][a-z]")) @build)
(let_declaration value: (scoped_identifier name: (identifier) @_v (#match? @_v "^[A-Z][a-z]")) @build)
(return_expression (scoped_identifier name: (identifier) @_v (#match? @_v "^[A-Z][a-z]")) @build)
(closure_expression body: (scoped_identifier name: (identifier) @_v (#match? @_v "^[A-Z][a-z]")) @build)
(block (scoped_identifier name: (identifier) @_v (#match? @_v "^[A-Z][a-z]")) @build .)
; `E::V.into()`, a match arm's value (`_ => E::V,`), a field's (`Error { kind: E::V, .. }`)
(field_expression value: (scoped_identifier name: (identifier) @_v (#match? @_v "^[A-Z][a-z]")) @build)
(match_arm value: (scoped_identifier name: (identifier) @_v (#match? @_v "^[A-Z][a-z]")) @build)
(field_initializer value: (scoped_identifier name: (identifier) @_v (#match? @_v "^[A-Z][a-z]")) @build)
; an error struct built: `InvalidPatternError { .. }` (a struct named so: `Build(T, "")`),
; and a snafu context selector, a struct of the variant's name and `Snafu` (`ListSchemasSnafu
; { catalog }`, `.context(ListCatalogsSnafu)`, `ensure!(ok, TableNotFoundSnafu { .. })`)
(struct_expression name: (type_identifier) @_t (#match? @_t "(Error|Err|Snafu)$")) @build
; (a bare selector, `(identifier)`, is matched by `rust-index-snafu.scm`, run only where a
; file says `Snafu`: a predicate on every identifier costs 9% of the index)

(match_arm pattern: (match_pattern) value: (_)) @arm

; An `if` on a plain name, whose branches' calls a walk up the callers needs that name one
; way or the other (`valueflow.guard_needs`): `if flag`, `if !flag`, `if opt.is_some()`,
; `if mode == Mode::Fast`
(if_expression condition: (identifier)) @guard
(if_expression condition: (unary_expression (identifier))) @guard
(if_expression condition: (call_expression function: (field_expression value: (identifier)
  field: (field_identifier) @_m (#match? @_m "^is_(some|none)$")))) @guard
(if_expression condition: (binary_expression left: (identifier) right: (scoped_identifier))) @guard
; and a `match` on one (`match mode { Mode::Fast => .. }`, `match name { "kv" => .. }`)
(match_expression value: (identifier)) @guard
; an `if` on a field (`if opts.list_details`, `if !opts.full_path`): what a path's hop is
; under, said to a reader; no need of a walk (`index._guard`: it never hides one on a name)
(if_expression condition: (field_expression)) @guard
(if_expression condition: (unary_expression (field_expression))) @guard
(match_expression value: (reference_expression value: (identifier))) @guard

; A table's registration, `TypableCommand { name: "move", fun: move_buffer, .. }`: the
; `name` field; `index.py` reads the fns its siblings name.
(field_initializer field: (field_identifier) @_n (#eq? @_n "name") value: (string_literal)) @registered

(token_tree (identifier) @mcall.plain . (token_tree))
(token_tree "." . (identifier) @mcall.method . (token_tree))
(token_tree (identifier) . "::" . (identifier) @mcall.path . (token_tree))
; `bail!(Error::ScriptingNotAllowed)`, `Err(E::V)` in a macro's tokens: a unit variant, a value
(token_tree (identifier) . "::" . (identifier) @mbuild.unit . [")" ","])
; `run_impl::<A, B>(..)`, `x.parse::<T>()`: `index.py` finds the arguments past the `>`
(token_tree (identifier) @mcall.generic . "::" . "<")
