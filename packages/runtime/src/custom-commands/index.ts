export { COMMAND_NAME_PART, parseCommandFile, type CustomCommand } from "./command-file.js";
export {
  COMMAND_FILE_MAX_BYTES,
  discoverCommands,
  type CommandDiscovery,
} from "./discover-commands.js";
export { expandCommand, parseInvocation, splitArguments } from "./expand-command.js";
