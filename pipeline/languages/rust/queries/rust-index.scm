; The repository index: definitions, calls and `use` declarations of one file.
; Capture names map to what `index.py` records; `.node` captures are the whole item.

(function_item name: (identifier) @def.fn) @def.fn.node
(function_signature_item name: (identifier) @def.fn) @def.fn.node
(struct_item name: (type_identifier) @def.struct) @def.struct.node
(enum_item name: (type_identifier) @def.enum) @def.enum.node
(enum_variant name: (identifier) @def.variant) @def.variant.node
(const_item name: (identifier) @def.const) @def.const.node
(static_item name: (identifier) @def.static) @def.static.node
(type_item name: (type_identifier) @def.type) @def.type.node
(trait_item name: (type_identifier) @def.trait) @def.trait.node
(field_declaration name: (field_identifier) @def.field) @def.field.node
(impl_item) @impl
(mod_item name: (identifier) @mod body: (declaration_list)) @mod.node
(use_declaration) @use
(let_declaration) @let

(call_expression function: [(identifier) @call.plain
                             (scoped_identifier name: (identifier) @call.path)
                             (field_expression field: (field_identifier) @call.method)
                             (generic_function function: [(identifier) @call.plain
                                                          (scoped_identifier name: (identifier) @call.path)
                                                          (field_expression field: (field_identifier) @call.method)])]
                 arguments: (arguments) @call.args) @call

(match_arm pattern: (match_pattern) @arm.pattern value: (_) @arm.value) @arm

(token_tree (identifier) @mcall.plain . (token_tree) @mcall.args)
(token_tree "." . (identifier) @mcall.method . (token_tree) @mcall.args)
(token_tree (identifier) . "::" . (identifier) @mcall.path . (token_tree) @mcall.args)
