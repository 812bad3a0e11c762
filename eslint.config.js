// ESLint for the browser code (static/js) and its Node tests (tests/js): `npm run lint`,
// run by tests/test_lint.py. One dialect: ES modules, const/let, arrow callbacks, ===.
import js from "@eslint/js";
import globals from "globals";

export default [
  { ignores: ["static/js/htmx.min.js"] }, // vendored
  js.configs.recommended,
  {
    languageOptions: { ecmaVersion: 2024, sourceType: "module", globals: globals.browser },
    rules: {
      "no-var": "error",
      "prefer-const": "error",
      "prefer-arrow-callback": "error",
      eqeqeq: "error",
      "no-implicit-globals": "error",
      "no-unused-vars": ["error", { caughtErrors: "none" }],
    },
  },
  {
    // Service workers stay classic scripts: not every browser runs a module worker.
    files: ["static/js/*-sw.js"],
    languageOptions: { sourceType: "script", globals: globals.serviceworker },
  },
  { files: ["tests/js/**", "eslint.config.js"], languageOptions: { globals: globals.node } },
];
