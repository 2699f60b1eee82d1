; TSX is TypeScript plus JSX: see language.toml `include`.
