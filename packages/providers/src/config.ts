// `@xzatoma/providers/config`: the zod schema of the `provider` section. Kept out of the main
// entry, so that a program that creates providers from a configuration it has already read
// loads no zod for it.
export {
  isProviderType,
  PROVIDER_TYPES,
  providerConfigSchema,
  type ProviderConfig,
  type ProviderType,
} from "./provider-config.js";
