/**
 * The derive owner's front: every pure decision and every text of the kitchen. Task state from the
 * records the store read, the tick's plan, the close verdict, model selection, rulebook resolution,
 * dispatch input, a project's test command among its discovered ones, the integration snapshot, and
 * the words for the chef, the person and the cooks.
 * No file system, clock or process table: everything comes in as arguments.
 */
export {
  deriveTask, plan, closeVerdict, briefDelivered, dispatched,
  type Action, type Plan, type PlanConfig, type PromptKind, type CloseFacts, type CloseVerdict, type DeriveConfig,
  type LiveCook, type LiveMap, type Notice, type TaskView, type TriedModel,
} from './task.js'
export { rulebookFor, missingRulebooks, rulebookText, type Role } from './rulebooks.js'
export {
  normalizeDispatch, selectModels, modelsPrompt,
  type DispatchItem, type DispatchIssue, type DispatchIssueCode, type NormalizedDispatch, type ModelCheck, type Selection, type Skipped,
} from './dispatch.js'
export {
  noticeLine, sawText, wakeText, restartText, boardText, widgetLines, stateText, outcomeText, needsYou, duration, oneLine,
  projectText, dispatchText, dispatchFailedText, resultText, resultFacts, resultClaim, closeText, claim, verifyText, verifyNotRunText,
  briefPrompt, messagesPrompt, fallbackPrompt, launchPrompt,
  cooksSnapshot, COOKS_EVENT, COOKS_REQUEST_EVENT,
  resultHeadline, type VerifyVerdict, FORMATS_TEXT, leaseHolderText, leaseLostText, commandsText, sendText, stopText,
  boardHeadingText, serveLineText, chefOnText, chefUsageText,
  boardOffText, boardRestoringText, CHEF_OFF_TEXT, CHEF_ALREADY_OFF_TEXT, VERIFY_READ_ONLY_TEXT, namedTestProblemText, noTestCommandText,
  type Board, type PromptTask, type ResultFacts, type CooksSnapshot, type CookTask, type CookPaths, type CommandsFound,
} from './texts.js'
export { commandLine, declaredAt, findNamed, findTest, findBuild, verificationOrder, TEST_NAMES, BUILD_NAMES } from './commands.js'
// the merge queue's lines, overlapping changes, the landing's test and result's diff
export {
  mergeEntryLines, mergeReportText, mergeWakeText, overlapText, mergeTestText, mergeTestNotRunText, diffText, DIFF_LINES, type MergeWhere,
} from './texts.js'
