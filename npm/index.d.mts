// Types for `import`: the same declarations as for `require` (index.d.ts).
export * from "./index.js";
