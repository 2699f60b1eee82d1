; C tags for codenav. Capture names are the contract (grammars/README.md).
; Checked against tree-sitter-language-pack 0.13.0's `c` grammar.
;
; Only definitions are nodes: a function prototype or an `extern` declaration (what a
; header declares for the .c file that defines it) is not, so a call reaches the one
; definition (free_names "global"); the name in the prototype is a reference to it.

; ---------------------------------------------------------------- definitions

; Functions, their declarator under up to two pointers. @definition.type: the struct or
; typedef returned (what calling the function makes).
(function_definition
  type: [(type_identifier) @definition.type
         (struct_specifier name: (type_identifier) @definition.type)
         (union_specifier name: (type_identifier) @definition.type)
         (_)]
  declarator: (function_declarator
    declarator: (identifier) @name.definition.function)) @definition.function
(function_definition
  type: [(type_identifier) @definition.type
         (struct_specifier name: (type_identifier) @definition.type)
         (union_specifier name: (type_identifier) @definition.type)
         (_)]
  declarator: (pointer_declarator
    declarator: (function_declarator
      declarator: (identifier) @name.definition.function))) @definition.function
(function_definition
  declarator: (pointer_declarator
    declarator: (pointer_declarator
      declarator: (function_declarator
        declarator: (identifier) @name.definition.function)))) @definition.function

; Structs and unions with a body; `struct P` without one is a use.
(struct_specifier
  name: (type_identifier) @name.definition.struct
  body: (field_declaration_list)) @definition.struct
(union_specifier
  name: (type_identifier) @name.definition.union
  body: (field_declaration_list)) @definition.union
; An enum's span is its name: its enumerators are top-level names of the file (as C sees
; them), not members of the enum.
(enum_specifier
  name: (type_identifier) @name.definition.enum @definition.enum
  body: (enumerator_list))
(enumerator name: (identifier) @name.definition.constant) @definition.constant

; typedef of an anonymous struct / union / enum: the typedef's name is the type's.
(type_definition
  type: (struct_specifier !name body: (field_declaration_list))
  declarator: (type_identifier) @name.definition.struct) @definition.struct
(type_definition
  type: (union_specifier !name body: (field_declaration_list))
  declarator: (type_identifier) @name.definition.union) @definition.union
(type_definition
  type: (enum_specifier !name body: (enumerator_list))
  declarator: (type_identifier) @name.definition.enum @definition.enum)

; Other typedefs (kind `typedef`); @definition.type is the struct or type they name (its
; members are theirs). The span of a typedef whose struct has a body and a name is the
; typedef's name only, so that the struct is not nested in it.
(type_definition
  type: [(type_identifier) @definition.type
         (struct_specifier name: (type_identifier) @definition.type !body)
         (union_specifier name: (type_identifier) @definition.type !body)
         (enum_specifier name: (type_identifier) !body)
         (primitive_type) (sized_type_specifier)]
  declarator: [(type_identifier) @name.definition.typedef
               (pointer_declarator declarator: (type_identifier) @name.definition.typedef)
               (function_declarator
                 declarator: (parenthesized_declarator
                   (pointer_declarator declarator: (type_identifier) @name.definition.typedef)))
               ; a function type: `typedef void (redisCallbackFn)(void *);`
               (function_declarator
                 declarator: (parenthesized_declarator (type_identifier) @name.definition.typedef))
               ; … returning a pointer: `typedef void *(*allocFn)(size_t);`
               (pointer_declarator
                 declarator: (function_declarator
                   declarator: (parenthesized_declarator
                     (pointer_declarator declarator: (type_identifier) @name.definition.typedef))))
               (array_declarator declarator: (type_identifier) @name.definition.typedef)])
  @definition.typedef
(type_definition
  type: [(struct_specifier name: (type_identifier) @definition.type
                           body: (field_declaration_list))
         (union_specifier name: (type_identifier) @definition.type
                          body: (field_declaration_list))
         (enum_specifier name: (type_identifier) body: (enumerator_list))]
  declarator: [(type_identifier) @name.definition.typedef @definition.typedef
               (pointer_declarator
                 declarator: (type_identifier) @name.definition.typedef @definition.typedef)])

; Macros: `#define N 10` is a constant, `#define SQ(x) …` a macro. A bare `#define X`
; (an include guard, a feature flag) is not a node.
(preproc_def name: (identifier) @name.definition.constant value: (preproc_arg))
  @definition.constant
(preproc_function_def name: (identifier) @name.definition.macro) @definition.macro
; `#define FEATURE`: no node, but a use of kind `define`, so that the linker knows the project
; defines it (a branch on it may be compiled; see modules/c.py)
(preproc_def name: (identifier) @name.reference.define !value)

; Globals (in a function they are local bindings: `scopes`); `extern` ones are declarations.
((declaration
   type: [(type_identifier) @definition.type
          (struct_specifier name: (type_identifier) @definition.type)
          (union_specifier name: (type_identifier) @definition.type)
          (_)]
   declarator: [(identifier) @name.definition.variable
                (init_declarator declarator: (identifier) @name.definition.variable)
                (pointer_declarator declarator: (identifier) @name.definition.variable)
                (init_declarator
                  declarator: (pointer_declarator declarator: (identifier) @name.definition.variable))
                (array_declarator declarator: (identifier) @name.definition.variable)
                (init_declarator
                  declarator: (array_declarator declarator: (identifier) @name.definition.variable))
                (pointer_declarator
                  declarator: (array_declarator declarator: (identifier) @name.definition.variable))
                (init_declarator
                  declarator: (pointer_declarator
                    declarator: (array_declarator
                      declarator: (identifier) @name.definition.variable)))])
  @definition.variable
  (#not-match? @definition.variable "^extern[ \t\n]"))
((declaration
   (type_qualifier) @_const
   declarator: [(init_declarator declarator: (identifier) @name.definition.constant)
                (init_declarator
                  declarator: (array_declarator declarator: (identifier) @name.definition.constant))])
  @definition.constant
  (#eq? @_const "const")
  (#not-match? @definition.constant "^extern[ \t\n]"))

; Struct and union fields; @definition.type: their struct or typedef type.
(field_declaration
  type: [(type_identifier) @definition.type
         (struct_specifier name: (type_identifier) @definition.type)
         (union_specifier name: (type_identifier) @definition.type)
         (_)]
  declarator: [(field_identifier) @name.definition.field
               (pointer_declarator declarator: (field_identifier) @name.definition.field)
               (pointer_declarator
                 declarator: (pointer_declarator declarator: (field_identifier) @name.definition.field))
               (array_declarator declarator: (field_identifier) @name.definition.field)
               (function_declarator
                 declarator: (parenthesized_declarator
                   (pointer_declarator declarator: (field_identifier) @name.definition.field)))])
  @definition.field

; ----------------------------------------------------------------- references
; Every identifier, type_identifier and field_identifier is a reference of kind `name`
; unless a pattern below says more. The receiver of `p.x` / `p->x` is the field_expression's
; `argument` (`receivers`; `->` reads as `.`).

(field_expression field: (field_identifier) @name.reference.attribute)
; … through a cast: `((redisReply *)r)->str` is a member of redisReply
(field_expression
  argument: (parenthesized_expression (cast_expression
    type: (type_descriptor type: [(type_identifier) @reference.receiver
                                  (struct_specifier name: (type_identifier) @reference.receiver)
                                  (union_specifier name: (type_identifier) @reference.receiver)])))
  field: (field_identifier) @name.reference.attribute)

; Designated initializers name fields of the initialized type (kind `field`):
; `hiredisAllocFuncs fns = { .freeFn = free }`, `(T){ .a = 1 }`, `T all[] = { { .a = 1 } }`.
(declaration
  type: [(type_identifier) @reference.receiver
         (struct_specifier name: (type_identifier) @reference.receiver)
         (union_specifier name: (type_identifier) @reference.receiver)]
  declarator: (init_declarator
    value: (initializer_list
      (initializer_pair designator: (field_designator (field_identifier) @name.reference.field)))))
(declaration
  type: [(type_identifier) @reference.receiver
         (struct_specifier name: (type_identifier) @reference.receiver)
         (union_specifier name: (type_identifier) @reference.receiver)]
  declarator: (init_declarator
    declarator: (array_declarator)
    value: (initializer_list (initializer_list
      (initializer_pair designator: (field_designator (field_identifier) @name.reference.field))))))
(compound_literal_expression
  type: (type_descriptor type: [(type_identifier) @reference.receiver
                                (struct_specifier name: (type_identifier) @reference.receiver)
                                (union_specifier name: (type_identifier) @reference.receiver)])
  value: (initializer_list
    (initializer_pair designator: (field_designator (field_identifier) @name.reference.field))))

(call_expression function: (identifier) @name.reference.call)
(call_expression function: (field_expression field: (field_identifier) @name.reference.call))
(call_expression
  function: (parenthesized_expression (identifier) @name.reference.call))

; A header's declaration of a function defined elsewhere refers to it.
(declaration declarator: (function_declarator declarator: (identifier) @name.reference.declaration))
(declaration
  declarator: (pointer_declarator
    declarator: (function_declarator declarator: (identifier) @name.reference.declaration)))

; -------------------------------------------------------------------- imports
; `#include "x.h"` sees every name of x.h: a wildcard import (modules/c.py finds the file).
(preproc_include path: (string_literal (string_content) @import.module) @import.wildcard) @import
(preproc_include path: (system_lib_string) @import.module @import.wildcard) @import

; --------------------------------------------------------------------- scopes

(function_definition) @local.scope
(preproc_function_def) @local.scope
; A struct's fields are reached through a value (`p.x`), never by their bare name.
(field_declaration_list) @local.scope.hidden
; The parameters of a prototype or a function pointer bind nothing outside it.
(declaration declarator: (function_declarator) @local.scope)
(declaration declarator: (pointer_declarator declarator: (function_declarator) @local.scope))
(field_declaration declarator: (function_declarator) @local.scope)
(type_definition declarator: (function_declarator) @local.scope)
(abstract_function_declarator) @local.scope
(parameter_declaration declarator: (function_declarator) @local.scope)

; ---------------------------------------------------------------- local names

(preproc_params (identifier) @local.definition)

(parameter_declaration
  type: [(type_identifier) @local.type
         (struct_specifier name: (type_identifier) @local.type)
         (union_specifier name: (type_identifier) @local.type)
         (_)]
  declarator: [(identifier) @local.definition
               (pointer_declarator declarator: (identifier) @local.definition)
               (pointer_declarator
                 declarator: (pointer_declarator declarator: (identifier) @local.definition))
               (array_declarator declarator: (identifier) @local.definition)
               (function_declarator
                 declarator: (parenthesized_declarator
                   (pointer_declarator declarator: (identifier) @local.definition)))])

; Local variables (the global patterns above bind them too: in a function they are locals);
; here with their struct or typedef type, so that `p->x` finds the field.
((declaration
  type: [(type_identifier) @local.type
         (struct_specifier name: (type_identifier) @local.type)
         (union_specifier name: (type_identifier) @local.type)
         (_)]
  declarator: [(identifier) @local.definition
               (init_declarator declarator: (identifier) @local.definition)
               (pointer_declarator declarator: (identifier) @local.definition)
               (init_declarator
                 declarator: (pointer_declarator declarator: (identifier) @local.definition))
               (array_declarator declarator: (identifier) @local.definition)
               (init_declarator
                 declarator: (array_declarator declarator: (identifier) @local.definition))]) @_local
  (#not-match? @_local "^extern[ \t\n]"))
