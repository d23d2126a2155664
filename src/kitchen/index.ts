/**
 * The kitchen core's public surface (`dsh-command-scout/kitchen`): no harness types. The dsh shell
 * opens a kitchen with `openKitchen`, injects the cook command, the model check, the wake delivery
 * and the snapshot emitter, and calls the operations.
 */
export {
  openKitchen, Kitchen, KitchenReader,
  type KitchenDeps, type Opened, type FaultPoint, type AddProjectInput,
  type DispatchResult, type Dispatched, type SendResult, type StopResult, type CloseResult, type ResultView, type TickResult,
} from './kitchen.js'
export { DEFAULT_COOK_COMMAND, checkCookCommand, cookArgv, COOK_MARKER_ENV, type LaunchValues } from './cooks/index.js'
export {
  briefPrompt, messagesPrompt, fallbackPrompt,
  cooksSnapshot, COOKS_EVENT, COOKS_REQUEST_EVENT, type CooksSnapshot, type CookTask,
  normalizeDispatch, type DispatchItem, type NormalizedDispatch,
  modelsPrompt, rulebookFor, missingRulebooks, claim, verifyText, verifyNotRunText,
} from './derive/index.js'
export { Waker, type Wake, type WakeNotice } from './waker.js'
export { Store, normalizeKitchenConfig, DEFAULT_KITCHEN_CONFIG } from './store/index.js'
export {
  KitchenError, ChefError,
  type KitchenErrorCode, type TaskState, type Outcome, type KitchenConfig, type Profile, type RunLine, type TaskView, type Notice,
} from './domain.js'
