const { MetadataStorage } = require("@medusajs/framework/mikro-orm/core")

// Each test file boots its own app; clear entity metadata between them.
MetadataStorage.clear()
