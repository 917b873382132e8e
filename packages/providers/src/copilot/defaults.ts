/** The URLs the Copilot provider talks to; every one can be overridden. */
export interface CopilotUrls {
  /** GitHub's device-code endpoint. */
  readonly deviceCodeUrl: string;
  /** GitHub's OAuth token endpoint, polled during the device flow. */
  readonly accessTokenUrl: string;
  /** Exchanges a GitHub token for a Copilot token. */
  readonly tokenUrl: string;
  /** The Copilot API when the token exchange names none (or is disabled). */
  readonly apiBaseUrl: string;
}

export const DEFAULT_COPILOT_URLS: CopilotUrls = Object.freeze({
  deviceCodeUrl: "https://github.com/login/device/code",
  accessTokenUrl: "https://github.com/login/oauth/access_token",
  tokenUrl: "https://api.github.com/copilot_internal/v2/token",
  apiBaseUrl: "https://api.githubcopilot.com",
});

/**
 * The OAuth client id of the original XZatoma (the GitHub App that VS Code and
 * copilot.vim use). Its tokens need the token exchange. Configure your own where you can.
 */
export const DEFAULT_COPILOT_CLIENT_ID = "Iv1.b507a08c87ecfe98";
export const DEFAULT_COPILOT_SCOPE = "read:user";
/** The model used when none is named. */
export const DEFAULT_COPILOT_MODEL = "gpt-5-mini";

/** The editor and integration headers the Copilot API requires. */
export interface CopilotHeaders {
  readonly "Copilot-Integration-Id": string;
  readonly "Editor-Version": string;
  readonly "Editor-Plugin-Version": string;
  readonly "User-Agent": string;
  readonly "Openai-Intent": string;
}

export const DEFAULT_COPILOT_HEADERS: CopilotHeaders = Object.freeze({
  "Copilot-Integration-Id": "vscode-chat",
  "Editor-Version": "vscode/1.99.3",
  "Editor-Plugin-Version": "copilot-chat/0.26.7",
  "User-Agent": "xzatoma/0.1.0",
  "Openai-Intent": "conversation-edits",
});
