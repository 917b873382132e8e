export {
  createCredentialStore,
  createOsKeyring,
  CREDENTIAL_ENV_VARS,
  KEYRING_SERVICE,
  type CredentialSource,
  type CredentialStore,
  type CredentialStoreOptions,
  type KeyringBackend,
} from "./store.js";
