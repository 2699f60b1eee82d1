; Go tags for codenav. Capture names are the contract (grammars/README.md).
; Checked against tree-sitter-language-pack 0.13.0's `go` grammar.

; ---------------------------------------------------------------- definitions
; A declaration holding one spec (`type X struct{}`) spans the whole declaration, so
; the comment above it is its doc; specs of a group (`type ( … )`) span themselves.

(type_spec name: (type_identifier) @name.definition.struct type: (struct_type)) @definition.struct
(type_declaration . (type_spec name: (type_identifier) @name.definition.struct
                               type: (struct_type)) .) @definition.struct
(type_spec name: (type_identifier) @name.definition.interface
           type: (interface_type)) @definition.interface
(type_declaration . (type_spec name: (type_identifier) @name.definition.interface
                               type: (interface_type)) .) @definition.interface

; Other named types (`type Count int`) may have methods too: kind `type`, a container.
(type_spec name: (type_identifier) @name.definition.type
           type: [(type_identifier) (qualified_type) (pointer_type) (generic_type)
                  (slice_type) (array_type) (map_type) (channel_type)
                  (function_type)]) @definition.type
(type_declaration . (type_spec name: (type_identifier) @name.definition.type
    type: [(type_identifier) (qualified_type) (pointer_type) (generic_type) (slice_type)
           (array_type) (map_type) (channel_type) (function_type)]) .) @definition.type
(type_alias name: (type_identifier) @name.definition.type) @definition.type
(type_declaration . (type_alias name: (type_identifier) @name.definition.type) .) @definition.type

; Struct fields (embedded ones are inheritance references below); @definition.type is
; the field's type, so `s.db.Query()` finds `Query` in the field's struct.
(field_declaration
  name: (field_identifier) @name.definition.field
  type: [(type_identifier) (qualified_type)]? @definition.type) @definition.field
(field_declaration
  name: (field_identifier) @name.definition.field
  type: (pointer_type [(type_identifier) (qualified_type)] @definition.type)) @definition.field
; A slice, array or map field takes its element's type: Go's collections have no methods,
; so only `for _, x := range s.items` reads it (x is an element).
(field_declaration
  name: (field_identifier) @name.definition.field
  type: [(slice_type element: [(type_identifier) (qualified_type)] @definition.type)
         (slice_type element: (pointer_type [(type_identifier) (qualified_type)] @definition.type))
         (array_type element: [(type_identifier) (qualified_type)] @definition.type)
         (array_type element: (pointer_type [(type_identifier) (qualified_type)] @definition.type))
         (map_type value: [(type_identifier) (qualified_type)] @definition.type)
         (map_type value: (pointer_type [(type_identifier) (qualified_type)] @definition.type))
        ]) @definition.field

; Interface methods.
(method_elem name: (field_identifier) @name.definition.method
  result: [(type_identifier) (qualified_type)]? @definition.type) @definition.method
(method_elem name: (field_identifier) @name.definition.method
  result: [(pointer_type [(type_identifier) (qualified_type)] @definition.type)
           (parameter_list . (parameter_declaration
               type: [(type_identifier) (qualified_type)] @definition.type))
           (parameter_list . (parameter_declaration
               type: (pointer_type [(type_identifier) (qualified_type)] @definition.type)))]) @definition.method

; Functions: @definition.type is what calling one makes (its first result's type; of a
; slice, its element's, as for fields: `for _, c := range f()` reads it).
(function_declaration
  name: (identifier) @name.definition.function
  result: [(type_identifier) (qualified_type)]? @definition.type) @definition.function
(function_declaration
  name: (identifier) @name.definition.function
  result: [(pointer_type [(type_identifier) (qualified_type)] @definition.type)
           (generic_type type: (type_identifier) @definition.type)
           (slice_type element: [(type_identifier) (qualified_type)] @definition.type)
           (slice_type element: (pointer_type [(type_identifier) (qualified_type)] @definition.type))
           (parameter_list . (parameter_declaration
               type: [(type_identifier) (qualified_type)] @definition.type))
           (parameter_list . (parameter_declaration
               type: (pointer_type [(type_identifier) (qualified_type)] @definition.type)))]) @definition.function

; Methods: the receiver's type is the owner. (A later pattern on the same name wins.)
(method_declaration
  receiver: (parameter_list (parameter_declaration
    type: [(type_identifier) @definition.owner
           (pointer_type (type_identifier) @definition.owner)
           (generic_type type: (type_identifier) @definition.owner)
           (pointer_type (generic_type type: (type_identifier) @definition.owner))]))
  name: (field_identifier) @name.definition.method
  result: [(type_identifier) (qualified_type)]? @definition.type) @definition.method
(method_declaration
  receiver: (parameter_list (parameter_declaration
    type: [(type_identifier) @definition.owner
           (pointer_type (type_identifier) @definition.owner)
           (generic_type type: (type_identifier) @definition.owner)
           (pointer_type (generic_type type: (type_identifier) @definition.owner))]))
  name: (field_identifier) @name.definition.method
  result: [(pointer_type [(type_identifier) (qualified_type)] @definition.type)
           (slice_type element: [(type_identifier) (qualified_type)] @definition.type)
           (slice_type element: (pointer_type [(type_identifier) (qualified_type)] @definition.type))
           (parameter_list . (parameter_declaration
               type: [(type_identifier) (qualified_type)] @definition.type))
           (parameter_list . (parameter_declaration
               type: (pointer_type [(type_identifier) (qualified_type)] @definition.type)))]) @definition.method

; Package-level constants and variables (inside functions they are local bindings); `_`
; (`var _ Iface = (*T)(nil)`) names nothing.
((const_spec name: (identifier) @name.definition.constant
             type: [(type_identifier) (qualified_type)]? @definition.type) @definition.constant
  (#not-eq? @name.definition.constant "_"))
((const_declaration . (const_spec name: (identifier) @name.definition.constant
    type: [(type_identifier) (qualified_type)]? @definition.type) .) @definition.constant
  (#not-eq? @name.definition.constant "_"))

((var_spec
  name: (identifier) @name.definition.variable
  type: [(type_identifier) (qualified_type)]? @definition.type) @definition.variable
  (#not-eq? @name.definition.variable "_"))
((var_spec
  name: (identifier) @name.definition.variable
  type: (pointer_type [(type_identifier) (qualified_type)] @definition.type)) @definition.variable
  (#not-eq? @name.definition.variable "_"))
((var_spec
  name: (identifier) @name.definition.variable
  value: (expression_list . [
    (call_expression function: [(identifier) (selector_expression)] @definition.type)
    (composite_literal type: [(type_identifier) (qualified_type)] @definition.type)
    (unary_expression operand: (composite_literal
      type: [(type_identifier) (qualified_type)] @definition.type))] .)) @definition.variable
  (#not-eq? @name.definition.variable "_"))
((var_declaration . (var_spec
  name: (identifier) @name.definition.variable
  type: [(type_identifier) (qualified_type)]? @definition.type) .) @definition.variable
  (#not-eq? @name.definition.variable "_"))

; The package doc: the comment right above the package clause.
(source_file . (comment)+ @doc.module . (package_clause))

; ----------------------------------------------------------------- references

(selector_expression field: (field_identifier) @name.reference.attribute)
(qualified_type name: (type_identifier) @name.reference.attribute)
(qualified_type package: (package_identifier) @name.reference.name)

(call_expression function: (identifier) @name.reference.call)
(call_expression function: (selector_expression field: (field_identifier) @name.reference.call))
(type_conversion_expression type: (generic_type type: (type_identifier) @name.reference.call))

; Embedded structs and interfaces: Go's inheritance.
(field_declaration !name type: (type_identifier) @name.reference.inheritance)
(field_declaration !name type: (pointer_type (type_identifier) @name.reference.inheritance))
(field_declaration !name type: (qualified_type name: (type_identifier) @name.reference.inheritance))
(field_declaration !name
  type: (pointer_type (qualified_type name: (type_identifier) @name.reference.inheritance)))
; (an element of one type: `A | B` in a constraint is a type set, not an embedding)
(interface_type (type_elem . (type_identifier) @name.reference.inheritance .))
(interface_type (type_elem . (qualified_type name: (type_identifier) @name.reference.inheritance) .))

(import_spec name: (package_identifier) @name.reference.import)

; A name in a type position means a type, never a field or variable of that name
; (`FlagAllow FlagAllow` in a struct: the second is the type).
(type_identifier) @name.reference.type

; The keys of a struct literal are its type's fields (kind `field`): `Command{Use: x}`,
; `&cli.Command{Use: x}`; in a literal whose type is left out (`[]*Group{{ID: x}}`,
; `map[string]Group{"a": {ID: x}}`) they are the element type's. A key of another literal
; (a map's, `map[string]string{Name: x}`) is an expression: an ordinary name.
(composite_literal
  type: [(type_identifier) (qualified_type)] @reference.receiver
  body: (literal_value (keyed_element . (literal_element (identifier) @name.reference.field))))
(composite_literal
  type: (generic_type type: [(type_identifier) (qualified_type)] @reference.receiver)
  body: (literal_value (keyed_element . (literal_element (identifier) @name.reference.field))))
(composite_literal
  type: [(slice_type element: [(type_identifier) (qualified_type)] @reference.receiver)
         (slice_type element: (pointer_type [(type_identifier) (qualified_type)] @reference.receiver))
         (array_type element: [(type_identifier) (qualified_type)] @reference.receiver)
         (array_type element: (pointer_type [(type_identifier) (qualified_type)] @reference.receiver))
         (implicit_length_array_type
           element: [(type_identifier) (qualified_type)] @reference.receiver)]
  body: (literal_value (literal_element (literal_value
    (keyed_element . (literal_element (identifier) @name.reference.field))))))
(composite_literal
  type: [(map_type value: [(type_identifier) (qualified_type)] @reference.receiver)
         (map_type value: (pointer_type [(type_identifier) (qualified_type)] @reference.receiver))]
  body: (literal_value (keyed_element (literal_element) . (literal_element (literal_value
    (keyed_element . (literal_element (identifier) @name.reference.field)))))))
; … of a type this file cannot tell (an anonymous struct, a literal nested deeper): a
; member of something unknown, linked nowhere rather than to a namesake in scope.
(literal_element (literal_value
  (keyed_element . (literal_element (identifier) @name.reference.attribute))) @reference.receiver)
(composite_literal
  type: [(struct_type) (slice_type) (array_type) (implicit_length_array_type)] @reference.receiver
  body: (literal_value (keyed_element . (literal_element (identifier) @name.reference.attribute))))

; -------------------------------------------------------------------- imports
; The path is the module; a plain import binds the package's name, which the module
; system takes from the path's last element (`bound_name`).

(import_spec !name path: (_) @import.module) @import
(import_spec name: (package_identifier) @import.alias path: (_) @import.module) @import
(import_spec name: (dot) @import.wildcard path: (_) @import.module) @import
; `import _ "x"` binds nothing: no binding here (it would be `_`).

; --------------------------------------------------------------------- scopes

; Fields and interface methods are reached through a value, never by their bare name.
(field_declaration_list) @local.scope.hidden
(interface_type) @local.scope.hidden
(function_declaration) @local.scope
(type_spec type_parameters: (type_parameter_list)) @local.scope  ; `type Stack[T any] …`
(method_declaration) @local.scope
(func_literal) @local.scope
; the parameter names of a function type (`Run func(cmd *Command, args []string)`) bind
; nothing outside it
(function_type) @local.scope
(block) @local.scope
(if_statement) @local.scope
(for_statement) @local.scope
(expression_switch_statement) @local.scope
(type_switch_statement) @local.scope
(select_statement) @local.scope
(expression_case) @local.scope
(type_case) @local.scope
(communication_case) @local.scope

; ---------------------------------------------------------------- local names
; Parameters (the receiver among them) with their types: `s.db` in a method finds `db`
; in the receiver's struct.

(parameter_declaration name: (identifier) @local.definition
  type: [(type_identifier) (qualified_type)] @local.type)
(parameter_declaration name: (identifier) @local.definition
  type: (pointer_type [(type_identifier) (qualified_type)] @local.type))
(parameter_declaration name: (identifier) @local.definition
  type: (generic_type type: (type_identifier) @local.type))
(parameter_declaration name: (identifier) @local.definition
  type: (pointer_type (generic_type type: (type_identifier) @local.type)))
(parameter_declaration name: (identifier) @local.definition
  type: [(slice_type element: [(type_identifier) (qualified_type)] @local.type)
         (slice_type element: (pointer_type [(type_identifier) (qualified_type)] @local.type))
         (map_type value: [(type_identifier) (qualified_type)] @local.type)
         (map_type value: (pointer_type [(type_identifier) (qualified_type)] @local.type))])
(parameter_declaration name: (identifier) @local.definition)
(variadic_parameter_declaration name: (identifier) @local.definition
  type: [(type_identifier) (qualified_type)] @local.type)
(variadic_parameter_declaration name: (identifier) @local.definition
  type: (pointer_type [(type_identifier) (qualified_type)] @local.type))
(variadic_parameter_declaration name: (identifier) @local.definition)
(type_parameter_declaration name: (identifier) @local.definition)
; A generic receiver (`func (s *Stack[T]) Push(v T)`) declares the method's type parameters.
(method_declaration receiver: (parameter_list (parameter_declaration
  type: [(generic_type type_arguments: (type_arguments (type_elem (type_identifier) @local.definition)))
         (pointer_type (generic_type
           type_arguments: (type_arguments (type_elem (type_identifier) @local.definition))))])))

; `x := NewServer()`, `x := &Server{}`, `x := in.(*Server)`, `x := y`, `x := y.z`: the
; first name takes what the call makes (its first result), the literal's or the asserted
; type, or the type of the name.
((short_var_declaration
  left: (expression_list . (identifier) @local.definition)
  right: (expression_list . [
    (call_expression function: [(identifier) (selector_expression)] @local.type)
    (composite_literal type: [(type_identifier) (qualified_type)] @local.type)
    (unary_expression operand: (composite_literal
      type: [(type_identifier) (qualified_type)] @local.type))
    (type_assertion_expression type: [(type_identifier) (qualified_type)] @local.type)
    (type_assertion_expression
      type: (pointer_type [(type_identifier) (qualified_type)] @local.type))
    (identifier) @local.type
    (selector_expression) @local.type]))
  (#not-match? @local.type "^(make|new)$"))
; `f := func() *Command {…}`: calling f makes a Command; `x := xs[0]`, `x := c.All()[0]`: an
; element (a slice takes its element's type); `xs := make([]*Command, 0)`.
(short_var_declaration
  left: (expression_list . (identifier) @local.definition)
  right: (expression_list . [
    (func_literal result: [(type_identifier) (qualified_type)] @local.type)
    (func_literal result: (pointer_type [(type_identifier) (qualified_type)] @local.type))
    (index_expression
      operand: [(identifier) (selector_expression) (call_expression)] @local.type)]))
((short_var_declaration
  left: (expression_list . (identifier) @local.definition)
  right: (expression_list . (call_expression
    function: (identifier) @_make
    arguments: (argument_list . [
      (slice_type element: [(type_identifier) (qualified_type)] @local.type)
      (slice_type element: (pointer_type [(type_identifier) (qualified_type)] @local.type))
      (map_type value: [(type_identifier) (qualified_type)] @local.type)
      (map_type value: (pointer_type [(type_identifier) (qualified_type)] @local.type))]))))
  (#eq? @_make "make"))
((short_var_declaration
  left: (expression_list . (identifier) @local.definition)
  right: (expression_list . (call_expression
    function: (identifier) @_new
    arguments: (argument_list . [(type_identifier) (qualified_type)] @local.type))))
  (#eq? @_new "new"))
(var_spec
  name: (identifier) @local.definition
  value: (expression_list . [
    (call_expression function: [(identifier) (selector_expression)] @local.type)
    (composite_literal type: [(type_identifier) (qualified_type)] @local.type)
    (unary_expression operand: (composite_literal
      type: [(type_identifier) (qualified_type)] @local.type))
    (type_assertion_expression type: [(type_identifier) (qualified_type)] @local.type)
    (type_assertion_expression
      type: (pointer_type [(type_identifier) (qualified_type)] @local.type))]))
(short_var_declaration left: (expression_list (identifier) @local.definition))
(var_spec name: (identifier) @local.definition
  type: [(type_identifier) (qualified_type)] @local.type)
(var_spec name: (identifier) @local.definition
  type: (pointer_type [(type_identifier) (qualified_type)] @local.type))
(var_spec name: (identifier) @local.definition
  type: [(slice_type element: [(type_identifier) (qualified_type)] @local.type)
         (slice_type element: (pointer_type [(type_identifier) (qualified_type)] @local.type))
         (map_type value: [(type_identifier) (qualified_type)] @local.type)
         (map_type value: (pointer_type [(type_identifier) (qualified_type)] @local.type))])
(range_clause left: (expression_list (identifier) @local.definition))
; `for _, x := range xs`: x is an element, typed like the collection (see fields above).
(range_clause
  left: (expression_list (identifier) . (identifier) @local.definition)
  right: [(identifier) (selector_expression)
          (call_expression function: [(identifier) (selector_expression)])] @local.type)
(type_switch_statement alias: (expression_list (identifier) @local.definition))
(receive_statement left: (expression_list (identifier) @local.definition))
(labeled_statement label: (label_name) @local.definition)


; `_` and Go's predeclared identifiers (universe scope)
; are no map links.
((identifier) @local.definition (#eq? @local.definition "_"))
((type_identifier) @local.definition
  (#match? @local.definition "^(any|bool|byte|comparable|complex64|complex128|error|float32|float64|int|int8|int16|int32|int64|rune|string|uint|uint8|uint16|uint32|uint64|uintptr)$"))
((identifier) @local.definition
  (#match? @local.definition "^(append|cap|clear|close|complex|copy|delete|imag|len|make|max|min|new|panic|print|println|real|recover|iota|true|false|nil)$"))
; … and a predeclared type called as a conversion (`string(b)`).
((identifier) @local.definition
  (#match? @local.definition "^(any|bool|byte|comparable|complex64|complex128|error|float32|float64|int|int8|int16|int32|int64|rune|string|uint|uint8|uint16|uint32|uint64|uintptr)$"))
