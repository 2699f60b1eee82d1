; JavaScript (with JSX): what ../ecmascript/tags.scm and ../jsx/tags.scm do not cover, for
; tree-sitter-language-pack 0.13.0's `javascript` grammar. Capture names: grammars/README.md.

(class_declaration name: (identifier) @name.definition.class) @definition.class
; a named class expression no variable names (`this.Command = class CustomScriptCommand
; extends Command {…}`, an argument, a returned class); `const X = class X {}` is the
; variable's (its name is seen only inside the class)
(assignment_expression right: (class name: (identifier) @name.definition.class) @definition.class)
(arguments (class name: (identifier) @name.definition.class) @definition.class)
(return_statement (class name: (identifier) @name.definition.class) @definition.class)
; … an element of an array or a property's value (oak's test helper returning
; `[class MockNativeServer implements OakServer {…}, …]`, run 34)
(array (class name: (identifier) @name.definition.class) @definition.class)
(pair value: (class name: (identifier) @name.definition.class) @definition.class)

(class_body
  (field_definition
    property: [(property_identifier) (private_property_identifier)] @name.definition.field
    value: [(new_expression constructor: [(identifier) (member_expression)] @definition.type)
            (identifier) @definition.value]?) @definition.field)

; Accessors: `get url()`, `set url(v)` are properties (a method with a mark)
(class_body
  (method_definition ["get" "set"]
    name: [(property_identifier) (private_property_identifier) (computed_property_name)]
      @name.definition.property)
  @definition.property)

(class_heritage (identifier) @name.reference.inheritance)
(class_heritage (member_expression property: (property_identifier) @name.reference.inheritance))

(export_statement "default"
  declaration: (class_declaration name: (identifier) @export.default))

(class_declaration) @local.scope.hidden
(class) @local.scope.hidden

; Parameters (TypeScript wraps each in required_parameter / optional_parameter).
(formal_parameters (identifier) @local.definition)
(formal_parameters (assignment_pattern left: (identifier) @local.definition))
(formal_parameters (rest_pattern (identifier) @local.definition))
(formal_parameters (object_pattern (shorthand_property_identifier_pattern) @local.definition))
(formal_parameters (object_pattern (pair_pattern value: (identifier) @local.definition)))
(formal_parameters (array_pattern (identifier) @local.definition))
