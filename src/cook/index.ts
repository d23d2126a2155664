/**
 * The cook runner's public surface (`dsh-command-scout/cook`): the command template and overlay
 * the kitchen launches cooks with, and the pure parts (flags, run-file translation, contract).
 * No harness import: the plugins themselves are the overlay's rows (./entries).
 */
export {
  cookCommand, cookRunnerCommand, cookOverlayYaml, writeCookOverlay, launcherArgv, COOK_OVERLAY_FILE, type CookCommandOptions,
} from '../kitchen/cooks/runner-command.js'
export { parseCookFlags, splitModel, chooseEffort, ROLE_ENV, COOK_HELP, type CookStartup, type FlagResult } from './flags.js'
export { RunLineTranslator, activityOf, tailOf, reportOf, failureText, contentText, commandFailed, TAIL_CHARS, type SessionEventLike } from './run-lines.js'
export { contractText, contractFacts, commandLines, CONTRACT_HEADING, type ContractFacts } from './contract.js'
export { answerCookRole } from './role.js'
export { claimInbox, steerText, INBOX_POLL_MS, type ClaimedMessage } from './inbox.js'
