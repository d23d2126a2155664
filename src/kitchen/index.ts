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
export { DEFAULT_COOK_COMMAND, checkCookCommand, cookArgv, briefPrompt, messagesPrompt, fallbackPrompt, type LaunchValues } from './cooks.js'
export { Waker, type Wake, type WakeNotice } from './waker.js'
export { cooksSnapshot, COOKS_EVENT, COOKS_REQUEST_EVENT, type CooksSnapshot, type CookTask } from './events.js'
export { Store } from './store.js'
export { KitchenError, ChefError, type KitchenErrorCode, type TaskState, type Outcome, type KitchenConfig, type Profile, type RunLine } from './domain.js'
export { normalizeDispatch, type DispatchItem, type NormalizedDispatch } from './dispatch-input.js'
export { normalizeKitchenConfig, DEFAULT_KITCHEN_CONFIG } from './config.js'
export type { TaskView, Notice } from './derive.js'
