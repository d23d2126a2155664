/**
 * The kitchen core's public surface (`dsh-command-scout/kitchen`): no harness types. The dsh shell
 * opens a kitchen with `openKitchen`, injects the cook command, the model check, the wake delivery
 * and the snapshot emitter, and calls the operations.
 */
export {
  openKitchen, Kitchen, KitchenReader,
  type KitchenDeps, type Opened, type Standing, type FaultPoint, type AddProjectInput,
  type DispatchResult, type Dispatched, type SendResult, type StopResult, type CloseResult, type ResultView, type TickResult,
} from './kitchen.js'
export { DEFAULT_COOK_COMMAND, checkCookCommand, cookArgv, COOK_MARKER_ENV, type LaunchValues } from './cooks/index.js'
export {
  briefPrompt, messagesPrompt, fallbackPrompt,
  cooksSnapshot, COOKS_EVENT, COOKS_REQUEST_EVENT, type CooksSnapshot, type CookTask,
  normalizeDispatch, type DispatchItem, type NormalizedDispatch,
  modelsPrompt, rulebookFor, missingRulebooks, claim, verifyText, verifyNotRunText,
  resultHeadline, type VerifyVerdict, FORMATS_TEXT, leaseHolderText, leaseLostText, commandsText, sendText, stopText,
  boardHeadingText, serveLineText, chefOnText, chefUsageText,
  boardOffText, boardRestoringText, CHEF_OFF_TEXT, CHEF_ALREADY_OFF_TEXT, VERIFY_READ_ONLY_TEXT, namedTestProblemText, noTestCommandText, type CommandsFound,
  commandLine, declaredAt, findNamed, findTest, findBuild, verificationOrder,
} from './derive/index.js'
export { ROLE_EVENT, RULEBOOKS_EVENT, isRoleRequest, isRulebooksRequest, type RoleRequest, type RulebooksRequest } from './events.js'
export { Waker, type Wake, type WakeNotice } from './waker.js'
export { Store, normalizeKitchenConfig, DEFAULT_KITCHEN_CONFIG } from './store/index.js'
export {
  KitchenError, ChefError,
  type KitchenErrorCode, type TaskState, type Outcome, type KitchenConfig, type Profile, type RunLine, type TaskView, type Notice, type Lease,
} from './domain.js'
// the merge queue: its entries and the host's test runner, the texts of its test and of result's diff
export {
  MAX_MERGE_TASKS, type MergeEntry, type MergeEnd, type MergeTest, type MergeTestRun, type MergeTestVerdict,
} from './merge-queue.js'
export { mergeTestText, mergeTestNotRunText, DIFF_LINES } from './derive/index.js'
