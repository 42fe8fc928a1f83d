// The `express4` alias (npm:express@4) shares Express 5's published types for the suites; the
// adapter is typed structurally, so nothing here relies on a difference between them.
declare module "express4" {
  import express from "express";
  export default express;
}
