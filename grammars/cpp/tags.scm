; C++ tags for codenav. Capture names are the contract (grammars/README.md).
; Checked against tree-sitter-language-pack 0.13.0's `cpp` grammar.
;
; As in C (grammars/c/tags.scm), a prototype of a free function is not a node: the call
; reaches its one definition. A method declared in its class is a node (the class's member);
; its out-of-class definition `void Foo::bar() {}` is another, put in Foo when the file
; defines Foo (@definition.owner), else named `Foo.bar` at the top level.

; ---------------------------------------------------------------- definitions

(namespace_definition name: (namespace_identifier) @name.definition.namespace) @definition.namespace
; `namespace a::b::c {}` (nested as a::(b::c)): `c`, whose @definition.owner `b` ends
; the chain `a::b`: its qualified name is `a.b.c`.
(namespace_definition
  name: [(nested_namespace_specifier
           . (namespace_identifier) @definition.owner
           . (namespace_identifier) @name.definition.namespace .)
         (nested_namespace_specifier
           (nested_namespace_specifier
             . (namespace_identifier) @definition.owner
             . (namespace_identifier) @name.definition.namespace .))
         (nested_namespace_specifier
           (nested_namespace_specifier
             (nested_namespace_specifier
               . (namespace_identifier) @definition.owner
               . (namespace_identifier) @name.definition.namespace .)))])
  @definition.namespace

(class_specifier
  name: (type_identifier) @name.definition.class
  body: (field_declaration_list)) @definition.class
(struct_specifier
  name: (type_identifier) @name.definition.struct
  body: (field_declaration_list)) @definition.struct
(union_specifier
  name: (type_identifier) @name.definition.union
  body: (field_declaration_list)) @definition.union
; `enum class E {A}`: its members are `E::A`. A plain enum's span is its name: its
; enumerators are names of the scope around it (`A`), as C++ sees them.
((enum_specifier
   name: (type_identifier) @name.definition.enum
   body: (enumerator_list)) @definition.enum
  (#match? @definition.enum "^enum[ \t\n]+(class|struct)[^A-Za-z0-9_]"))
((enum_specifier
   name: (type_identifier) @name.definition.enum @definition.enum
   body: (enumerator_list)) @_enum
  (#not-match? @_enum "^enum[ \t\n]+(class|struct)[^A-Za-z0-9_]"))
(enumerator name: (identifier) @name.definition.constant) @definition.constant

; A template's span is the whole `template <…>` declaration.
(template_declaration
  (class_specifier name: (type_identifier) @name.definition.class body: (field_declaration_list)))
  @definition.class
(template_declaration
  (struct_specifier name: (type_identifier) @name.definition.struct body: (field_declaration_list)))
  @definition.struct

; typedef of an anonymous struct / class / enum: the typedef's name is the type's.
(type_definition
  type: (struct_specifier !name body: (field_declaration_list))
  declarator: (type_identifier) @name.definition.struct) @definition.struct
(type_definition
  type: (class_specifier !name body: (field_declaration_list))
  declarator: (type_identifier) @name.definition.class) @definition.class

; typedefs and `using X = …;` (kind `typedef`); @definition.type: the type they name.
(type_definition
  type: [(type_identifier) @definition.type
         (qualified_identifier) @definition.type
         (template_type name: (type_identifier) @definition.type)
         (struct_specifier name: (type_identifier) @definition.type !body)
         (class_specifier name: (type_identifier) @definition.type !body)
         (primitive_type) (sized_type_specifier) (enum_specifier)]
  declarator: [(type_identifier) @name.definition.typedef
               (pointer_declarator declarator: (type_identifier) @name.definition.typedef)
               (function_declarator
                 declarator: (parenthesized_declarator
                   (pointer_declarator declarator: (type_identifier) @name.definition.typedef)))])
  @definition.typedef
(type_definition
  type: [(struct_specifier name: (type_identifier) @definition.type body: (field_declaration_list))
         (class_specifier name: (type_identifier) @definition.type body: (field_declaration_list))]
  declarator: (type_identifier) @name.definition.typedef @definition.typedef)
(alias_declaration
  name: (type_identifier) @name.definition.typedef
  type: (type_descriptor
    type: [(type_identifier) @definition.type
           (qualified_identifier) @definition.type
           (template_type name: (type_identifier) @definition.type)
           (_)])) @definition.typedef
(template_declaration
  (alias_declaration name: (type_identifier) @name.definition.typedef)) @definition.typedef

; Functions (in a class: methods), their declarator under up to two pointers or a
; reference. @definition.type: the type returned (what calling it makes).
(function_definition
  type: [(type_identifier) @definition.type
         (qualified_identifier) @definition.type
         (template_type name: (type_identifier) @definition.type)
         (_)]?
  declarator: [(function_declarator
                 declarator: [(identifier) (field_identifier) (operator_name)
                              (destructor_name)] @name.definition.function)
               (pointer_declarator
                 declarator: (function_declarator
                   declarator: [(identifier) (field_identifier) (operator_name)]
                   @name.definition.function))
               (reference_declarator
                 (function_declarator
                   declarator: [(identifier) (field_identifier) (operator_name)]
                   @name.definition.function))]) @definition.function
(template_declaration
  (function_definition
    declarator: [(function_declarator
                   declarator: [(identifier) (field_identifier) (operator_name)]
                   @name.definition.function)
                 (pointer_declarator
                   declarator: (function_declarator
                     declarator: [(identifier) (field_identifier) (operator_name)]
                     @name.definition.function))
                 (reference_declarator
                   (function_declarator
                     declarator: [(identifier) (field_identifier) (operator_name)]
                     @name.definition.function))])) @definition.function

; Out-of-class definitions `T Foo::bar() {}` / `ns::Foo::Foo() {}`: @definition.owner is
; the class (the scope right before the name; the extractor reads the whole `ns::Foo`).
(function_definition
  declarator: [(function_declarator
                 declarator: (qualified_identifier
                   scope: (namespace_identifier) @definition.owner
                   name: [(identifier) (operator_name) (destructor_name)]
                   @name.definition.function))
               (function_declarator
                 declarator: (qualified_identifier
                   name: (qualified_identifier
                     scope: (namespace_identifier) @definition.owner
                     name: [(identifier) (operator_name) (destructor_name)]
                     @name.definition.function)))
               (function_declarator
                 declarator: (qualified_identifier
                   name: (qualified_identifier
                     name: (qualified_identifier
                       scope: (namespace_identifier) @definition.owner
                       name: [(identifier) (operator_name) (destructor_name)]
                       @name.definition.function))))
               (pointer_declarator
                 declarator: (function_declarator
                   declarator: (qualified_identifier
                     scope: (namespace_identifier) @definition.owner
                     name: [(identifier) (operator_name)] @name.definition.function)))
               (reference_declarator
                 (function_declarator
                   declarator: (qualified_identifier
                     scope: (namespace_identifier) @definition.owner
                     name: [(identifier) (operator_name)] @name.definition.function)))])
  @definition.function

; Methods declared in their class (defined elsewhere).
(field_declaration_list
  (field_declaration
    declarator: [(function_declarator
                   declarator: [(field_identifier) (operator_name)] @name.definition.function)
                 (pointer_declarator
                   declarator: (function_declarator
                     declarator: [(field_identifier) (operator_name)] @name.definition.function))
                 (reference_declarator
                   (function_declarator
                     declarator: [(field_identifier) (operator_name)]
                     @name.definition.function))]) @definition.function)
(field_declaration_list
  (declaration
    declarator: (function_declarator
      declarator: [(identifier) (destructor_name) (operator_name)] @name.definition.function))
  @definition.function)
(field_declaration_list
  (template_declaration
    (declaration
      declarator: (function_declarator
        declarator: [(identifier) (field_identifier) (operator_name)]
        @name.definition.function))) @definition.function)

; Fields; @definition.type: their class type.
(field_declaration
  type: [(type_identifier) @definition.type
         (qualified_identifier) @definition.type
         (template_type name: (type_identifier) @definition.type)
         (_)]
  declarator: [(field_identifier) @name.definition.field
               (pointer_declarator declarator: (field_identifier) @name.definition.field)
               (reference_declarator (field_identifier) @name.definition.field)
               (array_declarator declarator: (field_identifier) @name.definition.field)])
  @definition.field

; Macros, as in C.
(preproc_def name: (identifier) @name.definition.constant value: (preproc_arg))
  @definition.constant
(preproc_function_def name: (identifier) @name.definition.macro) @definition.macro
; `#define FEATURE`: no node, but a use of kind `define` (see the C query)
(preproc_def name: (identifier) @name.reference.define !value)

; Variables at file or namespace level (in a function they are local bindings);
; `extern` ones are declarations.
((declaration
   type: [(type_identifier) @definition.type
          (qualified_identifier) @definition.type
          (template_type name: (type_identifier) @definition.type)
          (_)]
   declarator: [(identifier) @name.definition.variable
                (init_declarator declarator: (identifier) @name.definition.variable)
                (pointer_declarator declarator: (identifier) @name.definition.variable)
                (init_declarator
                  declarator: (pointer_declarator declarator: (identifier) @name.definition.variable))
                (reference_declarator (identifier) @name.definition.variable)
                (init_declarator
                  declarator: (reference_declarator (identifier) @name.definition.variable))
                (array_declarator declarator: (identifier) @name.definition.variable)])
  @definition.variable
  (#not-match? @definition.variable "^extern[ \t\n]"))
((declaration
   (type_qualifier) @_const
   declarator: (init_declarator declarator: (identifier) @name.definition.constant))
  @definition.constant
  (#match? @_const "^const(expr)?$")
  (#not-match? @definition.constant "^extern[ \t\n]"))

; ----------------------------------------------------------------- references
; Every identifier, type_identifier, field_identifier and namespace_identifier is a
; reference of kind `name` unless a pattern below says more. Receivers (`receivers`):
; `p.x` / `p->x` / `this->x` a field_expression's argument; `a::b::C` a qualified
; identifier's scope (`::` and `->` read as `.`).

(field_expression field: (field_identifier) @name.reference.attribute)
(qualified_identifier name: [(identifier) (type_identifier) (namespace_identifier)]
  @name.reference.attribute)
(qualified_identifier
  name: (qualified_identifier scope: (namespace_identifier) @name.reference.attribute))
(qualified_identifier
  name: (template_type name: (type_identifier) @name.reference.attribute))

(call_expression function: (identifier) @name.reference.call)
(call_expression function: (field_expression field: (field_identifier) @name.reference.call))
(call_expression function: (qualified_identifier name: (identifier) @name.reference.call))
(call_expression
  function: (qualified_identifier
    name: (qualified_identifier name: (identifier) @name.reference.call)))
(call_expression
  function: (qualified_identifier
    name: (qualified_identifier
      name: (qualified_identifier name: (identifier) @name.reference.call))))
(call_expression function: (template_function name: (identifier) @name.reference.call))
(call_expression
  function: (qualified_identifier name: (template_function name: (identifier) @name.reference.call)))
(call_expression
  function: (qualified_identifier
    name: (qualified_identifier
      name: (template_function name: (identifier) @name.reference.call))))
(qualified_identifier
  name: (qualified_identifier name: (template_type name: (type_identifier) @name.reference.attribute)))
(new_expression type: (type_identifier) @name.reference.call)
(new_expression type: (qualified_identifier name: (type_identifier) @name.reference.call))

(base_class_clause (type_identifier) @name.reference.inheritance)
(base_class_clause (qualified_identifier name: (type_identifier) @name.reference.inheritance))
(base_class_clause
  (qualified_identifier
    name: (qualified_identifier name: (type_identifier) @name.reference.inheritance)))
(base_class_clause (template_type name: (type_identifier) @name.reference.inheritance))

; A prototype of a function defined elsewhere refers to it.
(declaration declarator: (function_declarator declarator: (identifier) @name.reference.declaration))
(declaration
  declarator: (pointer_declarator
    declarator: (function_declarator declarator: (identifier) @name.reference.declaration)))

; -------------------------------------------------------------------- imports
; `#include "x.h"` sees every name of x.h: a wildcard import (modules/c.py finds the file).
(preproc_include path: (string_literal (string_content) @import.module) @import.wildcard) @import
(preproc_include path: (system_lib_string) @import.module @import.wildcard) @import
; `using namespace a::b;`: every name of the namespace.
(using_declaration "namespace" [(identifier) (qualified_identifier)] @import.module @import.wildcard)
  @import
; `using a::b::C;` binds C to the namespace member.
(using_declaration
  (qualified_identifier name: (identifier) @import.alias) @import.module) @import
(using_declaration
  (qualified_identifier
    name: (qualified_identifier name: (identifier) @import.alias)) @import.module) @import
(using_declaration
  (qualified_identifier
    name: (qualified_identifier
      name: (qualified_identifier name: (identifier) @import.alias))) @import.module) @import

; --------------------------------------------------------------------- scopes
; A class body is hidden: its members are reached through `this` and implicit members.

; A namespace's body: its names are seen in it; elsewhere as `ns::name` (free names inside
; it are looked up in the namespace wherever it is reopened: free_names "lexical").
(namespace_definition body: (declaration_list) @local.scope)
(function_definition) @local.scope
(lambda_expression) @local.scope
(preproc_function_def) @local.scope
(catch_clause) @local.scope
(field_declaration_list) @local.scope.hidden
(declaration declarator: (function_declarator) @local.scope)
(declaration declarator: (pointer_declarator declarator: (function_declarator) @local.scope))
(field_declaration declarator: (function_declarator) @local.scope)
(type_definition declarator: (function_declarator) @local.scope)
(abstract_function_declarator) @local.scope
(parameter_declaration declarator: (function_declarator) @local.scope)

; ---------------------------------------------------------------- local names

(preproc_params (identifier) @local.definition)
; Template parameters bind in the scope around the template (a class body, the file).
(type_parameter_declaration (type_identifier) @local.definition)
(optional_type_parameter_declaration name: (type_identifier) @local.definition)
(parameter_declaration
  type: [(type_identifier) @local.type
         (qualified_identifier) @local.type
         (template_type name: (type_identifier) @local.type)
         (_)]
  declarator: [(identifier) @local.definition
               (pointer_declarator declarator: (identifier) @local.definition)
               (reference_declarator (identifier) @local.definition)
               (pointer_declarator
                 declarator: (pointer_declarator declarator: (identifier) @local.definition))
               (array_declarator declarator: (identifier) @local.definition)])
(optional_parameter_declaration
  type: [(type_identifier) @local.type
         (qualified_identifier) @local.type
         (_)]
  declarator: [(identifier) @local.definition
               (pointer_declarator declarator: (identifier) @local.definition)
               (reference_declarator (identifier) @local.definition)])
(for_range_loop
  type: [(type_identifier) @local.type
         (qualified_identifier) @local.type
         (template_type name: (type_identifier) @local.type)
         (_)]
  declarator: [(identifier) @local.definition
               (reference_declarator (identifier) @local.definition)
               (pointer_declarator declarator: (identifier) @local.definition)])

; Local variables with their class type (`Foo f;`, `Foo *p = new Foo;`, `auto q = new Foo`).
((declaration
   type: [(type_identifier) @local.type
          (qualified_identifier) @local.type
          (template_type name: (type_identifier) @local.type)
          (_)]
   declarator: [(identifier) @local.definition
                (init_declarator declarator: (identifier) @local.definition)
                (pointer_declarator declarator: (identifier) @local.definition)
                (init_declarator
                  declarator: (pointer_declarator declarator: (identifier) @local.definition))
                (reference_declarator (identifier) @local.definition)
                (init_declarator
                  declarator: (reference_declarator (identifier) @local.definition))
                (array_declarator declarator: (identifier) @local.definition)]) @_local
  (#not-match? @_local "^extern[ \t\n]"))
(declaration
  type: (placeholder_type_specifier)
  declarator: (init_declarator
    declarator: [(identifier) @local.definition
                  (pointer_declarator declarator: (identifier) @local.definition)]
    value: (new_expression type: [(type_identifier) (qualified_identifier)] @local.type)))
