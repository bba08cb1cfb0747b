#!/usr/bin/env python3
"""Structural check of GitLab CI files (there is no GitLab linter that runs offline).

    python3 ci/check_gitlab.py FILE...

Each file must be YAML whose top level is a mapping of global keywords and jobs; every job (a
key that is not a global keyword; hidden jobs start with `.`) must be a mapping of known job
keywords; a visible job needs `script` or `trigger`, itself or through `extends`; `extends` and
`needs` must name jobs of the file; `stage` must be one of `stages` (or a default stage);
`artifacts`, `rules` and `parallel` must have known shapes; script lines must be strings. Prints
`FILE: job: problem` per finding; exit 0 when there is none, 1 when there are, 2 when PyYAML is
missing or a file does not read.
"""

import sys

try:
    import yaml
except ImportError:  # pragma: no cover - the caller reports the skip
    print("check_gitlab: PyYAML is not installed (Debian: python3-yaml; pip: pyyaml)", file=sys.stderr)
    sys.exit(2)

GLOBAL = {"default", "include", "stages", "variables", "workflow", "image", "services", "cache",
          "before_script", "after_script"}
JOB = {"after_script", "allow_failure", "artifacts", "before_script", "cache", "coverage",
       "dast_configuration", "dependencies", "environment", "extends", "hooks", "id_tokens",
       "identity", "image", "inherit", "interruptible", "manual_confirmation", "needs", "pages",
       "parallel", "release", "resource_group", "retry", "rules", "run", "script", "secrets",
       "services", "stage", "tags", "timeout", "trigger", "variables", "when"}
ARTIFACTS = {"access", "exclude", "expire_in", "expose_as", "name", "paths", "public", "reports",
             "untracked", "when"}
RULE = {"if", "changes", "exists", "when", "allow_failure", "variables", "needs", "interruptible"}
DEFAULT_STAGES = [".pre", "build", "test", "deploy", ".post"]
WHEN = {"on_success", "on_failure", "always", "never", "manual", "delayed"}


def lines(value):
    """A script: a string or a list of strings (one level of nesting allowed, as GitLab does)."""
    if isinstance(value, str):
        return True
    return isinstance(value, list) and all(
        isinstance(v, str) or (isinstance(v, list) and all(isinstance(w, str) for w in v)) for v in value)


def check(path):
    problems = []
    try:
        with open(path, encoding="utf-8") as f:
            doc = yaml.safe_load(f)
    except (OSError, yaml.YAMLError) as e:
        return [f"does not read: {e}"]
    if not isinstance(doc, dict):
        return ["the top level is not a mapping"]
    stages = doc.get("stages", DEFAULT_STAGES)
    if not (isinstance(stages, list) and all(isinstance(s, str) for s in stages)):
        problems.append("stages: not a list of names")
        stages = DEFAULT_STAGES
    jobs = {k: v for k, v in doc.items() if k not in GLOBAL}

    def has(job, key, seen=()):
        body = jobs.get(job)
        if not isinstance(body, dict) or job in seen:
            return False
        if key in body:
            return True
        parents = body.get("extends", [])
        parents = [parents] if isinstance(parents, str) else parents
        return any(has(p, key, seen + (job,)) for p in parents if isinstance(p, str))

    for name, body in jobs.items():
        where = f"{name}"
        if not isinstance(body, dict):
            problems.append(f"{where}: not a mapping (unknown global keyword?)")
            continue
        for key in body:
            if key not in JOB:
                problems.append(f"{where}: unknown job keyword {key!r}")
        hidden = name.startswith(".")
        if not hidden and not (has(name, "script") or has(name, "trigger")):
            problems.append(f"{where}: no script or trigger")
        for key in ("script", "before_script", "after_script"):
            if key in body and not lines(body[key]):
                problems.append(f"{where}: {key} is not a list of strings")
        parents = body.get("extends", [])
        for p in [parents] if isinstance(parents, str) else parents:
            if p not in jobs:
                problems.append(f"{where}: extends unknown job {p!r}")
        for n in body.get("needs", []) or []:
            target = n.get("job") if isinstance(n, dict) else n
            if target not in jobs or str(target).startswith("."):
                problems.append(f"{where}: needs unknown job {target!r}")
        if "stage" in body and body["stage"] not in stages:
            problems.append(f"{where}: stage {body['stage']!r} is not in stages {stages}")
        art = body.get("artifacts")
        if art is not None:
            if not isinstance(art, dict):
                problems.append(f"{where}: artifacts is not a mapping")
            else:
                for key in art:
                    if key not in ARTIFACTS:
                        problems.append(f"{where}: unknown artifacts keyword {key!r}")
                if "when" in art and art["when"] not in {"on_success", "on_failure", "always"}:
                    problems.append(f"{where}: artifacts:when {art['when']!r}")
                reports = art.get("reports", {})
                if not isinstance(reports, dict):
                    problems.append(f"{where}: artifacts:reports is not a mapping")
        for rule in body.get("rules", []) or []:
            if not isinstance(rule, dict):
                problems.append(f"{where}: a rule is not a mapping")
                continue
            for key in rule:
                if key not in RULE:
                    problems.append(f"{where}: unknown rules keyword {key!r}")
            if "when" in rule and rule["when"] not in WHEN:
                problems.append(f"{where}: rules:when {rule['when']!r}")
        par = body.get("parallel")
        if par is not None:
            ok = (isinstance(par, int) and 1 <= par <= 200) or (
                isinstance(par, dict) and set(par) == {"matrix"} and isinstance(par["matrix"], list)
                and all(isinstance(m, dict) for m in par["matrix"]))
            if not ok:
                problems.append(f"{where}: parallel is neither 1..200 nor {{matrix: [...]}}")
        if "when" in body and body["when"] not in WHEN:
            problems.append(f"{where}: when {body['when']!r}")
    return problems


def main(argv):
    if not argv:
        print(__doc__, file=sys.stderr)
        return 2
    found = 0
    for path in argv:
        for p in check(path):
            found += 1
            print(f"{path}: {p}")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
