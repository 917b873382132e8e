// `@xzatoma/persistence/config`: the zod schema of the `persistence` section, kept out of the
// main entry so that opening the history loads no zod for it.
export { persistenceConfigSchema, type PersistenceConfig } from "./persistence-config.js";
