// Node's types as the starter has them (@types/node 17), not the plugin's own.
/// <reference path="../../node_modules/starter-types-node/index.d.ts" />
