// vitest runs the *.spec.mjs files only: fair.test.mjs is node:test's (`node --test`).
import { defineConfig } from "vitest/config";

export default defineConfig({ test: { include: ["**/*.spec.mjs"] } });
