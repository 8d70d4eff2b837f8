#!/usr/bin/env node
"use strict"
// `npm run demo [-- --once]`: see scripts/demo/main.ts
require("ts-node").register({
  transpileOnly: true,
  swc: true,
  project: require("node:path").join(__dirname, "..", "tsconfig.json"),
})
require("./demo/main.ts")
