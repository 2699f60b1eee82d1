; TypeScript: what ../ecmascript/tags.scm does not cover (types, interfaces, enums,
; namespaces, typed members), for tree-sitter-language-pack 0.13.0's `typescript` grammar.
; TSX includes this file too. Capture names: grammars/README.md.

; ---------------------------------------------------------------- definitions

(class_declaration name: (type_identifier) @name.definition.class) @definition.class
(abstract_class_declaration name: (type_identifier) @name.definition.class) @definition.class
; a named class expression no variable names (`this.Command = class CustomScriptCommand
; extends Command {…}`, an argument, a returned class); `const X = class X {}` is the
; variable's (its name is seen only inside the class)
(assignment_expression right: (class name: (type_identifier) @name.definition.class) @definition.class)
(arguments (class name: (type_identifier) @name.definition.class) @definition.class)
(return_statement (class name: (type_identifier) @name.definition.class) @definition.class)
; … an element of an array or a property's value (oak's test helper returning
; `[class MockNativeServer implements OakServer {…}, …]`, run 34)
(array (class name: (type_identifier) @name.definition.class) @definition.class)
(pair value: (class name: (type_identifier) @name.definition.class) @definition.class)
(interface_declaration name: (type_identifier) @name.definition.interface) @definition.interface
(type_alias_declaration name: (type_identifier) @name.definition.type) @definition.type
(enum_declaration name: (identifier) @name.definition.enum) @definition.enum
(enum_body name: (property_identifier) @name.definition.constant @definition.constant)
(enum_body (enum_assignment name: (property_identifier) @name.definition.constant) @definition.constant)
(internal_module name: (identifier) @name.definition.namespace) @definition.namespace
; a declaration without a body (an overload, `declare function`) has its return type too
(function_signature name: (identifier) @name.definition.function
  return_type: (type_annotation [(type_identifier) @definition.type (nested_type_identifier) @definition.type
   (this_type) @definition.type
   (generic_type name: (_) @definition.type)
   (union_type [(type_identifier) @definition.type (generic_type name: (_) @definition.type)])
   (intersection_type . [(type_identifier) @definition.type (generic_type name: (_) @definition.type)])])?) @definition.function

; A function's @definition.type is its declared return type (what calling it makes).
(function_declaration
  name: (identifier) @name.definition.function
  return_type: (type_annotation [(type_identifier) @definition.type (nested_type_identifier) @definition.type
   (generic_type name: (_) @definition.type)
   (union_type [(type_identifier) @definition.type (generic_type name: (_) @definition.type)])
   (intersection_type . [(type_identifier) @definition.type (generic_type name: (_) @definition.type)])])) @definition.function
(class_body
  (method_definition
    name: [(property_identifier) (private_property_identifier)] @name.definition.method
    return_type: (type_annotation [(type_identifier) @definition.type (nested_type_identifier) @definition.type
   (this_type) @definition.type
   (generic_type name: (_) @definition.type)
   (union_type [(type_identifier) @definition.type (generic_type name: (_) @definition.type)])
   (intersection_type . [(type_identifier) @definition.type (generic_type name: (_) @definition.type)])]))
  @definition.method)
; an overload signature, an abstract or an interface method: what it returns too (agenda's
; `create(name: string): Job<void>;` above its implementation; run 64)
(class_body
  [(method_signature name: (property_identifier) @name.definition.method
     return_type: (type_annotation [(type_identifier) @definition.type (nested_type_identifier) @definition.type
   (this_type) @definition.type
   (generic_type name: (_) @definition.type)
   (union_type [(type_identifier) @definition.type (generic_type name: (_) @definition.type)])
   (intersection_type . [(type_identifier) @definition.type (generic_type name: (_) @definition.type)])])?)
   (abstract_method_signature name: (property_identifier) @name.definition.method
     return_type: (type_annotation [(type_identifier) @definition.type (nested_type_identifier) @definition.type
   (this_type) @definition.type
   (generic_type name: (_) @definition.type)
   (union_type [(type_identifier) @definition.type (generic_type name: (_) @definition.type)])
   (intersection_type . [(type_identifier) @definition.type (generic_type name: (_) @definition.type)])])?)]
  @definition.method)
(interface_body
  (method_signature name: (property_identifier) @name.definition.method
    return_type: (type_annotation [(type_identifier) @definition.type (nested_type_identifier) @definition.type
   (this_type) @definition.type
   (generic_type name: (_) @definition.type)
   (union_type [(type_identifier) @definition.type (generic_type name: (_) @definition.type)])
   (intersection_type . [(type_identifier) @definition.type (generic_type name: (_) @definition.type)])])?) @definition.method)

; Fields: the annotation, else the class constructed, is the field's type.
(public_field_definition
  name: [(property_identifier) (private_property_identifier)] @name.definition.field
  type: (type_annotation [(type_identifier) @definition.type (nested_type_identifier) @definition.type
   (generic_type name: (_) @definition.type)
   (union_type [(type_identifier) @definition.type (generic_type name: (_) @definition.type)])
   (intersection_type . [(type_identifier) @definition.type (generic_type name: (_) @definition.type)])])?
  value: [(new_expression constructor: [(identifier) (member_expression)] @definition.type)
          (identifier) @definition.value]?) @definition.field
(interface_body
  (property_signature
    name: (property_identifier) @name.definition.field
    type: (type_annotation [(type_identifier) @definition.type (nested_type_identifier) @definition.type
   (generic_type name: (_) @definition.type)
   (union_type [(type_identifier) @definition.type (generic_type name: (_) @definition.type)])
   (intersection_type . [(type_identifier) @definition.type (generic_type name: (_) @definition.type)])])?) @definition.field)

; Typed variables (`var` too: `var list: ns.LinkedList<any>;` in a test's callback).
(variable_declaration
  (variable_declarator
    name: (identifier) @name.definition.variable
    type: (type_annotation [(type_identifier) @definition.type (nested_type_identifier) @definition.type
   (generic_type name: (_) @definition.type)
   (union_type [(type_identifier) @definition.type (generic_type name: (_) @definition.type)])
   (intersection_type . [(type_identifier) @definition.type (generic_type name: (_) @definition.type)])]))) @definition.variable
(lexical_declaration
  (variable_declarator
    name: (identifier) @name.definition.variable
    type: (type_annotation [(type_identifier) @definition.type (nested_type_identifier) @definition.type
   (generic_type name: (_) @definition.type)
   (union_type [(type_identifier) @definition.type (generic_type name: (_) @definition.type)])
   (intersection_type . [(type_identifier) @definition.type (generic_type name: (_) @definition.type)])]))) @definition.variable
(lexical_declaration
  "const"
  (variable_declarator
    name: (identifier) @name.definition.constant
    type: (type_annotation [(type_identifier) @definition.type (nested_type_identifier) @definition.type
   (generic_type name: (_) @definition.type)
   (union_type [(type_identifier) @definition.type (generic_type name: (_) @definition.type)])
   (intersection_type . [(type_identifier) @definition.type (generic_type name: (_) @definition.type)])]))) @definition.constant

; Parameter properties (`constructor(private svc: Service)`) are fields of the class,
; declared on the instance: an attribute with no receiver.
(method_definition
  name: (property_identifier) @_constructor
  parameters: (formal_parameters
    (required_parameter
      (accessibility_modifier)
      pattern: (identifier) @name.definition.attribute
      type: (type_annotation [(type_identifier) @definition.type (nested_type_identifier) @definition.type
   (generic_type name: (_) @definition.type)
   (union_type [(type_identifier) @definition.type (generic_type name: (_) @definition.type)])
   (intersection_type . [(type_identifier) @definition.type (generic_type name: (_) @definition.type)])])?) @definition.attribute)
  (#eq? @_constructor "constructor"))
(method_definition
  name: (property_identifier) @_constructor
  parameters: (formal_parameters
    (optional_parameter
      (accessibility_modifier)
      pattern: (identifier) @name.definition.attribute
      type: (type_annotation [(type_identifier) @definition.type (nested_type_identifier) @definition.type
   (generic_type name: (_) @definition.type)
   (union_type [(type_identifier) @definition.type (generic_type name: (_) @definition.type)])
   (intersection_type . [(type_identifier) @definition.type (generic_type name: (_) @definition.type)])])?) @definition.attribute)
  (#eq? @_constructor "constructor"))

; Accessors: `get url()`, `set url(v)` are properties (a method with a mark; last, so that
; they win over the method patterns above and in ../ecmascript/tags.scm)
(class_body
  (method_definition ["get" "set"]
    name: [(property_identifier) (private_property_identifier) (computed_property_name)]
      @name.definition.property)
  @definition.property)

; A function whose value is cast or checked: `const f = (async function* () {}) as T`
; (`as unknown as T` too),
; `const g = (() => 1) satisfies F` (named by the variable, like a plain one)
(lexical_declaration
  (variable_declarator
    name: (identifier) @name.definition.function
    value: [(as_expression . [(arrow_function) (function_expression) (generator_function)
                              (parenthesized_expression [(arrow_function) (function_expression)
                                                         (generator_function)])])
            (as_expression . (as_expression . (parenthesized_expression
                                                [(arrow_function) (function_expression)
                                                 (generator_function)])))
            (satisfies_expression . [(arrow_function) (function_expression)
                                     (generator_function)
                                     (parenthesized_expression [(arrow_function)
                                                                (function_expression)
                                                                (generator_function)])])]))
  @definition.function

; ----------------------------------------------------------------- references

(class_heritage (extends_clause value: (identifier) @name.reference.inheritance))
(class_heritage
  (extends_clause value: (member_expression property: (property_identifier) @name.reference.inheritance)))
(implements_clause (type_identifier) @name.reference.inheritance)
(implements_clause (generic_type name: (type_identifier) @name.reference.inheritance))
(implements_clause (nested_type_identifier name: (type_identifier) @name.reference.inheritance))
(implements_clause (generic_type name: (nested_type_identifier name: (type_identifier) @name.reference.inheritance)))
(extends_type_clause type: (type_identifier) @name.reference.inheritance)
(extends_type_clause type: (generic_type name: (type_identifier) @name.reference.inheritance))
(extends_type_clause type: (nested_type_identifier name: (type_identifier) @name.reference.inheritance))

; `ns.Type` in a type: a member of what `ns` names.
(nested_type_identifier name: (type_identifier) @name.reference.attribute)

; -------------------------------------------------------------------- exports

(export_statement "default"
  declaration: [(class_declaration name: (type_identifier) @export.default)
                (abstract_class_declaration name: (type_identifier) @export.default)
                (interface_declaration name: (type_identifier) @export.default)])

; --------------------------------------------------------------------- scopes

(class_declaration) @local.scope.hidden
(abstract_class_declaration) @local.scope.hidden
(class) @local.scope.hidden
(interface_declaration) @local.scope.hidden
(enum_declaration) @local.scope.hidden
(internal_module) @local.scope

; ---------------------------------------------------------------- local names

(required_parameter pattern: (identifier) @local.definition)
(optional_parameter pattern: (identifier) @local.definition)
(required_parameter
  pattern: (identifier) @local.definition
  type: (type_annotation [(type_identifier) @local.type (nested_type_identifier) @local.type
   (generic_type name: (_) @local.type)
   (union_type [(type_identifier) @local.type (generic_type name: (_) @local.type)])
   (intersection_type . [(type_identifier) @local.type (generic_type name: (_) @local.type)])]))
(optional_parameter
  pattern: (identifier) @local.definition
  type: (type_annotation [(type_identifier) @local.type (nested_type_identifier) @local.type
   (generic_type name: (_) @local.type)
   (union_type [(type_identifier) @local.type (generic_type name: (_) @local.type)])
   (intersection_type . [(type_identifier) @local.type (generic_type name: (_) @local.type)])]))
(required_parameter pattern: (rest_pattern (identifier) @local.definition))
(required_parameter pattern: (object_pattern (shorthand_property_identifier_pattern) @local.definition))
(required_parameter pattern: (object_pattern (pair_pattern value: (identifier) @local.definition)))
(required_parameter pattern: (array_pattern (identifier) @local.definition))
(variable_declarator
  name: (identifier) @local.definition
  type: (type_annotation [(type_identifier) @local.type (nested_type_identifier) @local.type
   (generic_type name: (_) @local.type)
   (union_type [(type_identifier) @local.type (generic_type name: (_) @local.type)])
   (intersection_type . [(type_identifier) @local.type (generic_type name: (_) @local.type)])]))
(type_parameter name: (type_identifier) @local.definition)
