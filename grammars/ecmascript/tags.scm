; What TypeScript, TSX and JavaScript share: patterns valid in all three grammars of
; tree-sitter-language-pack 0.13.0. Not a language of its own (no language.toml): the
; languages list it under `include`. Capture names: grammars/README.md.

; ---------------------------------------------------------------- definitions

(function_declaration
  name: (identifier) @name.definition.function) @definition.function
; A function whose body ends returning a `new X(…)` makes an X (`bulkhead()` of cockatiel:
; `return new BulkheadPolicy(…)`), unless a return type says otherwise (it comes first).
(function_declaration
  name: (identifier) @name.definition.function
  body: (statement_block
    (return_statement
      (new_expression constructor: [(identifier) (member_expression)] @definition.type)) .))
  @definition.function
; … and one ending `return net` (a local made so: brain.js's test helper `xorNet()`, `const
; net = new RNN(…); …; return net`), `return this.x`, `return this` or `return this.add(…)`
; (what a method of its own returns: grammY's `text()` ending `return this.add(…)`, which
; returns `this` — not any call: `return fetch(url)` says nothing of its result): what it
; returns
(function_declaration
  name: (identifier) @name.definition.function
  body: (statement_block
    (return_statement
      [(identifier) (member_expression) (this)
       (call_expression function: (member_expression object: (this)))] @definition.value) .))
  @definition.function
(generator_function_declaration
  name: (identifier) @name.definition.function) @definition.function

(class_body
  (method_definition
    name: [(property_identifier) (private_property_identifier)] @name.definition.method)
  @definition.method)
(class_body
  (method_definition
    name: [(property_identifier) (private_property_identifier)] @name.definition.method
    body: (statement_block
      (return_statement
        [(identifier) (member_expression) (this)
         (call_expression function: (member_expression object: (this)))] @definition.value) .))
  @definition.method)
; … and a method so ending (zrender's `BoundingRect.clone()`: `return new BoundingRect(…)`)
(class_body
  (method_definition
    name: [(property_identifier) (private_property_identifier)] @name.definition.method
    body: (statement_block
      (return_statement
        (new_expression constructor: [(identifier) (member_expression)] @definition.type)) .))
  @definition.method)
; a computed name: `get [GET_MATCH_RESULT]()`, `[Symbol.iterator]()` (named by its text)
(class_body
  (method_definition name: (computed_property_name) @name.definition.method)
  @definition.method)

; Variables: `let`/`var` are variables, `const` constants; one whose value is a function is a
; function. @definition.type: the class a `new` makes or the function whose result it holds;
; @definition.value: a name assigned.
; A `require("…")` is an import (below), not a variable.
(variable_declaration
  (variable_declarator
    name: (identifier) @name.definition.variable
    value: [(new_expression constructor: [(identifier) (member_expression)] @definition.type)
            (call_expression function: [(identifier) (member_expression)] @definition.type)
            (await_expression
              (call_expression function: [(identifier) (member_expression)] @definition.type))
            (identifier) @definition.value]?)) @definition.variable
(lexical_declaration
  (variable_declarator
    name: (identifier) @name.definition.variable
    value: [(new_expression constructor: [(identifier) (member_expression)] @definition.type)
            (call_expression function: [(identifier) (member_expression)] @definition.type)
            (await_expression
              (call_expression function: [(identifier) (member_expression)] @definition.type))
            (identifier) @definition.value]?)) @definition.variable
(lexical_declaration
  "const"
  (variable_declarator
    name: (identifier) @name.definition.constant
    value: [(new_expression constructor: [(identifier) (member_expression)] @definition.type)
            (call_expression function: [(identifier) (member_expression)] @definition.type)
            (await_expression
              (call_expression function: [(identifier) (member_expression)] @definition.type))
            (identifier) @definition.value]?)) @definition.constant
(lexical_declaration
  (variable_declarator
    name: [(object_pattern [(shorthand_property_identifier_pattern) @name.definition.variable
                            (pair_pattern value: (identifier) @name.definition.variable)])
           (array_pattern (identifier) @name.definition.variable)])) @definition.variable
(variable_declaration
  (variable_declarator
    name: [(object_pattern [(shorthand_property_identifier_pattern) @name.definition.variable
                            (pair_pattern value: (identifier) @name.definition.variable)])
           (array_pattern (identifier) @name.definition.variable)])) @definition.variable
([(lexical_declaration
   (variable_declarator
     name: (identifier) @name.definition.function
     value: [(arrow_function) (function_expression) (generator_function)]))
  (variable_declaration
   (variable_declarator
     name: (identifier) @name.definition.function
     value: [(arrow_function) (function_expression) (generator_function)]))]
  @definition.function)
; … and one in parentheses: `const f = (async function* () {})`
([(lexical_declaration
   (variable_declarator
     name: (identifier) @name.definition.function
     value: (parenthesized_expression
              [(arrow_function) (function_expression) (generator_function)])))
  (variable_declaration
   (variable_declarator
     name: (identifier) @name.definition.function
     value: (parenthesized_expression
              [(arrow_function) (function_expression) (generator_function)])))]
  @definition.function)

; A module's object of functions (`export const NumberUtils = { getInt32LE(…) {…}, f: () => … }`,
; js-bson): each is a function of the constant (`NumberUtils.getInt32LE`); only at the top
; of a module, where the object is the module's API, not a callback's options.
(program
  [(lexical_declaration (variable_declarator value: (object
     [(method_definition name: (property_identifier) @name.definition.function)
      (pair key: (property_identifier) @name.definition.function
            value: [(arrow_function) (function_expression)])] @definition.function)))
   (variable_declaration (variable_declarator value: (object
     [(method_definition name: (property_identifier) @name.definition.function)
      (pair key: (property_identifier) @name.definition.function
            value: [(arrow_function) (function_expression)])] @definition.function)))
   (export_statement declaration: (lexical_declaration (variable_declarator value: (object
     [(method_definition name: (property_identifier) @name.definition.function)
      (pair key: (property_identifier) @name.definition.function
            value: [(arrow_function) (function_expression)])] @definition.function))))])

; `this.x = …` in a method: a field of its class (the receiver is the keyword `this`).
(assignment_expression
  left: (member_expression
    object: (this) @definition.receiver
    property: [(property_identifier) (private_property_identifier)] @name.definition.attribute)
  right: [(new_expression constructor: [(identifier) (member_expression)] @definition.type)
          (identifier) @definition.value
          (_)]) @definition.attribute

; ----------------------------------------------------------------- references
; Identifiers (language.toml `identifiers`) are references of kind `name` unless a pattern
; below says more. Property names are references only where they are accessed.

(member_expression
  property: [(property_identifier) (private_property_identifier)] @name.reference.attribute)

(call_expression function: (identifier) @name.reference.call)
(call_expression
  function: (member_expression
    property: [(property_identifier) (private_property_identifier)] @name.reference.call))
; `await f<T>(x)`: tree-sitter-typescript hangs the call on the awaited callee
(call_expression function: (await_expression (identifier) @name.reference.call))
(call_expression
  function: (await_expression (member_expression
    property: [(property_identifier) (private_property_identifier)] @name.reference.call)))
; `client['_sendPacket'](…)`: a member called by its name in a string (mqtt.js's packet
; handlers call the private `_sendPacket` so: run 35); the receiver is the object
(call_expression
  function: (subscript_expression
    object: (_) @reference.receiver
    index: (string . (string_fragment) @name.reference.call .)))
(new_expression constructor: (identifier) @name.reference.call)
(new_expression constructor: (member_expression property: (property_identifier) @name.reference.call))

(decorator (identifier) @name.reference.decorator)
(decorator (call_expression function: (identifier) @name.reference.decorator))
(decorator (member_expression property: (property_identifier) @name.reference.decorator))
(decorator
  (call_expression function: (member_expression property: (property_identifier) @name.reference.decorator)))

(import_specifier name: (identifier) @name.reference.import)
(import_specifier alias: (identifier) @name.reference.import)
(namespace_import (identifier) @name.reference.import)
(import_clause (identifier) @name.reference.import)
(export_specifier name: (identifier) @name.reference.export)
(export_statement value: (identifier) @name.reference.export)

; -------------------------------------------------------------------- imports

(import_statement
  (import_clause (named_imports (import_specifier name: (identifier) @import.name
                                                  alias: (identifier)? @import.alias)))
  source: (string) @import.module) @import
(import_statement
  (import_clause (namespace_import (identifier) @import.alias))
  source: (string) @import.module) @import
(import_statement
  (import_clause (identifier) @import.default)
  source: (string) @import.module) @import

; Re-exports: `export { a as b } from "m"` binds nothing here but makes `b` a member of
; this module; `export * from "m"` passes on all of m's names.
(export_statement
  (export_clause (export_specifier name: (identifier) @import.name
                                   alias: (identifier)? @import.alias))
  source: (string) @import.module) @import
(export_statement
  "*" @import.wildcard
  source: (string) @import.module) @import
; `export * as Utils from "./utils/Utils"`: the module under a name of this one (p2-es, run 31)
(export_statement
  (namespace_export (identifier) @import.alias)
  source: (string) @import.module) @import

; CommonJS: `const x = require("./x")`, `const { a, b: c } = require("./x")`.
(lexical_declaration
  (variable_declarator
    name: (identifier) @import.alias
    value: (call_expression
      function: (identifier) @_require
      arguments: (arguments . (string) @import.module .)))
  (#eq? @_require "require")) @import
(lexical_declaration
  (variable_declarator
    name: (object_pattern (shorthand_property_identifier_pattern) @import.name)
    value: (call_expression
      function: (identifier) @_require
      arguments: (arguments . (string) @import.module .)))
  (#eq? @_require "require")) @import
(lexical_declaration
  (variable_declarator
    name: (object_pattern (pair_pattern key: (property_identifier) @import.name
                                        value: (identifier) @import.alias))
    value: (call_expression
      function: (identifier) @_require
      arguments: (arguments . (string) @import.module .)))
  (#eq? @_require "require")) @import

; -------------------------------------------------------------------- exports

(export_statement
  (export_clause (export_specifier name: (identifier) @export.name
                                   alias: (identifier)? @export.alias))
  !source)
(export_statement "default" value: (identifier) @export.default)
(export_statement "default"
  declaration: [(function_declaration name: (identifier) @export.default)
                (generator_function_declaration name: (identifier) @export.default)])

; --------------------------------------------------------------------- scopes

(function_declaration) @local.scope
(generator_function_declaration) @local.scope
(function_expression) @local.scope
(generator_function) @local.scope
(arrow_function) @local.scope
(method_definition) @local.scope
(statement_block) @local.scope
(for_statement) @local.scope
(for_in_statement) @local.scope
(catch_clause) @local.scope
(class_body) @local.scope.hidden

; ---------------------------------------------------------------- local names

; `const { a, b: c } = this`: locals that are members of the instance (their uses resolve
; through the member's type)
(variable_declarator
  name: (object_pattern (shorthand_property_identifier_pattern) @local.definition)
  value: (this) @local.member_of)
(variable_declarator
  name: (object_pattern (pair_pattern key: (property_identifier) @local.member
                                      value: (identifier) @local.definition))
  value: (this) @local.member_of)
(arrow_function parameter: (identifier) @local.definition)
(for_in_statement left: (identifier) @local.definition)
(catch_clause parameter: (identifier) @local.definition)
(variable_declarator
  name: (identifier) @local.definition
  value: (new_expression constructor: [(identifier) (member_expression)] @local.type))
; `queue = new Queue()` assigning a local declared without a type (`let queue;` in a test's
; describe, assigned in its beforeEach): the local is a Queue
(assignment_expression
  left: (identifier) @local.assigned
  right: (new_expression constructor: [(identifier) (member_expression)] @local.type))
; … or a member (`rect = this._paintRect || (this._paintRect = new BoundingRect())`)
(assignment_expression
  left: (identifier) @local.assigned
  right: [(member_expression) @local.type
          (binary_expression left: [(identifier) (member_expression)] @local.type
                             operator: ["||" "??"])])
; `if (x instanceof C) { … }`: in that block, x is a C
(if_statement
  condition: (parenthesized_expression
    (binary_expression left: (identifier) @local.narrowed operator: "instanceof"
                       right: [(identifier) (member_expression)] @local.type))
  consequence: (statement_block) @local.narrowing)
; `if (!(x instanceof C) || …) { … } else { … }`: in the else block, x is a C (golden-layout's
; `column.addChild(…)`, run 48)
(if_statement
  condition: (parenthesized_expression
    [(unary_expression operator: "!"
       argument: (parenthesized_expression
         (binary_expression left: (identifier) @local.narrowed operator: "instanceof"
                            right: [(identifier) (member_expression)] @local.type)))
     (binary_expression
       left: (unary_expression operator: "!"
         argument: (parenthesized_expression
           (binary_expression left: (identifier) @local.narrowed operator: "instanceof"
                              right: [(identifier) (member_expression)] @local.type)))
       operator: "||")])
  alternative: (else_clause (statement_block) @local.narrowing))
; `const self = this`, `var _this = this`: another name of the receiver
(variable_declarator
  name: (identifier) @local.definition
  value: (this) @local.type)
; `const stack = [root]`: an Array (a language's own type: `builtin_types`)
(variable_declarator
  name: (identifier) @local.definition
  value: (array) @local.type)
; `const r = this._paintRect`, `const r = a.b`: a local holding a member has its type; so has
; `const r = this._r || (this._r = new R())` (`??` too): the type of the left operand
(variable_declarator
  name: (identifier) @local.definition
  value: [(member_expression) @local.type
          (binary_expression left: [(identifier) (member_expression)] @local.type
                             operator: ["||" "??"])])
; A local holding what a call returns: the type of the function's declared return.
(variable_declarator
  name: (identifier) @local.definition
  value: [(call_expression function: [(identifier) (member_expression)] @local.type)
          (await_expression (call_expression function: [(identifier) (member_expression)] @local.type))])
