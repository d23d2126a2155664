/**
 * What a Python task runner's recipe runs, read from the root's pyproject.toml (and hatch.toml)
 * as the collector found it: poe tasks (text-poe.ts), pdm, hatch and rye scripts
 * (text-pdm-hatch.ts). A `[project.scripts]` entry point runs a Python function: unknown.
 * Every line runs at the scan root, unless the task says otherwise (poe `cwd`, pdm `working_dir`).
 */
import type { Recipe } from '../../recipe.js'
import type { BodyContext, BodyReader, RecipeBody } from '../types.js'
import { BodyBuilder, reason, unreadable, type LineAt } from './text-body.js'
import { runHatch, runPdm, runPdmTask, runRye } from './text-pdm-hatch.js'
import { runPoeTask } from './text-poe.js'
import { pythonFiles, table } from './text-python.js'

function readPython(recipe: Recipe, ctx: BodyContext, args: readonly string[]): RecipeBody {
  const via = [recipe.command]
  const files = pythonFiles(ctx)
  if (files.problem) return unreadable(recipe.command, files.problem, recipe.file, via, recipe.line)
  const tool = table(files.pyproject?.tool) ?? {}
  const out = new BodyBuilder()
  const lineIn = (...path: string[]) => (name: string) => files.lines.pyproject?.lineOf([...path, name])
  const at: LineAt = { cwd: '.', file: recipe.file, ...(recipe.line !== undefined ? { line: recipe.line } : {}), via }
  switch (recipe.runner) {
    case 'poe': {
      const poe = table(tool.poe) ?? {}
      runPoeTask({ out, poe, tasks: table(poe.tasks) ?? {}, at, root: ctx.root, lineOf: lineIn('tool', 'poe', 'tasks') }, recipe.name, args, via, [])
      break
    }
    case 'pdm': {
      const scripts = table(table(tool.pdm)?.scripts) ?? {}
      const run = { out, at, scripts, root: ctx.root, lineOf: lineIn('tool', 'pdm', 'scripts') }
      // pdm runs pre_run and post_run as signal handlers: the script alone, without hooks of its own.
      const hook = (name: string) => name in scripts && runPdmTask(run, name, [], [...via, `pdm run ${name}`], [])
      hook('pre_run')
      runPdm(run, recipe.name, args, via, [])
      hook('post_run')
      break
    }
    case 'hatch': {
      // hatch.toml's [envs] replaces [tool.hatch.envs] as a whole (as the collector reads it).
      const envs = table(files.hatch?.envs) ?? table(table(tool.hatch)?.envs) ?? {}
      runHatch({ out, at, envs, root: ctx.root }, recipe.name, args)
      break
    }
    case 'rye':
      runRye({ out, at, scripts: table(table(tool.rye)?.scripts) ?? {}, lineOf: lineIn('tool', 'rye', 'scripts') }, recipe.name, args, via, [])
      break
    default: {
      const target = table(table(files.pyproject?.project)?.scripts)?.[recipe.name]
      const why = `the entry point ${recipe.name} runs the Python function ${String(target ?? '?')}, whose code the gate does not read`
      out.addUnknown(typeof target === 'string' ? target : recipe.command, why, at)
    }
  }
  return out.result()
}

export const readPythonBody: BodyReader = (recipe, ctx, args) => {
  try {
    return readPython(recipe, ctx, args)
  } catch (error) {
    return unreadable(recipe.command, `pyproject.toml could not be read (${reason(error)})`, recipe.file, [recipe.command], recipe.line)
  }
}
