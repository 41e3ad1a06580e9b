"""Smoke tests for the example programs in examples/, each run in a reduced mode.

The examples are loaded from their files and driven through their ``main(argv)`` functions in
this process, so oracle mode (``JAXLITE_ORACLE=jax``) runs them against real JAX too. An
example's test is skipped only when its optional dependency (the ``examples`` extra) is not
installed; the missing-dependency message itself is checked in a subprocess that hides the
package.
"""

import csv
import importlib.util
import json
import math
import os
import subprocess
import sys

import numpy as np
import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
EXAMPLES = os.path.join(ROOT, "examples")
TESTS = os.path.dirname(os.path.abspath(__file__))


def load_example(name):
    path = os.path.join(EXAMPLES, name + ".py")
    spec = importlib.util.spec_from_file_location(f"_jaxlite_example_{name}", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def read_metrics(path):
    with open(path, newline="") as f:
        rows = list(csv.reader(f))
    header, body = rows[0], rows[1:]
    return header, np.array([[float(v) for v in r] for r in body])


# --------------------------------------------------------------------------- train_digits


def test_train_digits_two_epochs(tmp_path, capsys):
    pytest.importorskip("sklearn")
    pytest.importorskip("tqdm")
    pytest.importorskip("matplotlib")
    mod = load_example("train_digits")
    res = mod.main(["--epochs", "2", "--out", str(tmp_path), "--no-progress", "--target", "0"])
    out = capsys.readouterr().out

    # the CSV holds one row per step, in order (ordered io_callback inside lax.scan)
    header, rows = read_metrics(tmp_path / "metrics.csv")
    assert header == ["step", "loss", "batch_accuracy"]
    n = 2 * res["steps_per_epoch"]
    assert res["steps"] == n and rows.shape == (n, 3)
    np.testing.assert_array_equal(rows[:, 0], np.arange(n))
    assert np.all(np.isfinite(rows[:, 1])) and np.all(rows[:, 1] > 0)
    assert np.all((rows[:, 2] >= 0) & (rows[:, 2] <= 1))
    # ten classes from a small random init: the first loss is near log(10)
    assert abs(rows[0, 1] - math.log(10)) < 1.0
    epoch_means = rows[:, 1].reshape(2, -1).mean(axis=1)
    assert epoch_means[1] < 0.5 * epoch_means[0]

    # jax.debug.print reported each epoch's mean loss, matching the CSV
    for e in range(2):
        line = next(ln for ln in out.splitlines() if ln.startswith(f"epoch {e} loss "))
        assert abs(float(line.split()[-1]) - epoch_means[e]) < 2e-3

    assert res["test_accuracy"] >= 0.9
    assert f"test accuracy {res['test_accuracy']:.4f}" in out
    assert "wall time" in out
    with open(tmp_path / "loss.png", "rb") as f:
        assert f.read(8) == b"\x89PNG\r\n\x1a\n"
    assert res["exit_code"] == 0


def test_train_digits_full_run_reaches_target(tmp_path, capsys):
    """The demo's default settings, progress bar included, reach test accuracy >= 0.95."""
    pytest.importorskip("sklearn")
    pytest.importorskip("tqdm")
    pytest.importorskip("matplotlib")
    mod = load_example("train_digits")
    res = mod.main(["--out", str(tmp_path)])
    err = capsys.readouterr().err
    assert res["exit_code"] == 0
    assert res["test_accuracy"] >= 0.95
    n = res["steps"]
    assert n == 20 * res["steps_per_epoch"]
    assert f"{n}/{n}" in err  # the tqdm bar, advanced once per io_callback
    _, rows = read_metrics(tmp_path / "metrics.csv")
    assert rows.shape[0] == n and rows[-20:, 1].mean() < 0.1


def test_train_digits_reports_missed_target(tmp_path, capsys):
    pytest.importorskip("sklearn")
    pytest.importorskip("tqdm")
    pytest.importorskip("matplotlib")
    mod = load_example("train_digits")
    res = mod.main(["--epochs", "1", "--out", str(tmp_path), "--no-progress", "--target", "1.01"])
    assert res["exit_code"] == 1
    assert "below the target" in capsys.readouterr().err


# --------------------------------------------------------------------------- bessel


def test_bessel_float32():
    pytest.importorskip("scipy")
    mod = load_example("bessel")
    errors = mod.main(["--points", "40"])
    assert {"values", "grad", "grad2", "vmap_pairs", "vmap_nested", "ode", "zeros"} <= set(errors)
    assert max(errors.values()) < 1e-4


def test_bessel_x64():
    pytest.importorskip("scipy")
    mod = load_example("bessel")
    errors = mod.main(["--points", "40", "--x64"])
    assert max(errors.values()) < 1e-8


def test_bessel_custom_jvp_matches_scipy_under_jvp():
    special = pytest.importorskip("scipy.special")
    import jaxlite as jax

    mod = load_example("bessel")
    x = np.linspace(1.0, 9.0, 7, dtype=np.float32)
    y, y_dot = jax.jvp(lambda t: mod.jv(3.0, t), (x,), (np.ones_like(x),))
    np.testing.assert_allclose(np.asarray(y), special.jv(3.0, x), rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(np.asarray(y_dot), special.jvp(3.0, x, 1), rtol=1e-4, atol=1e-6)


# --------------------------------------------------------------------------- cartpole


def test_cartpole_quick():
    pytest.importorskip("gymnasium")
    mod = load_example("cartpole")
    res = mod.main(["--quick"])
    assert res["exit_code"] == 0
    # one io_callback per scan step, every generation
    assert res["env_steps"] == 2 * res["horizon"]
    assert len(res["history"]) == 2
    for h in res["history"]:
        for key in ("population_mean", "population_max", "policy_return"):
            assert 1 <= h[key] <= res["horizon"]


def test_cartpole_rollout_matches_host_loop():
    """The jitted scan + io_callback rollout gives the returns of a plain host loop."""
    gym = pytest.importorskip("gymnasium")
    import jaxlite.numpy as jnp

    mod = load_example("cartpole")
    rng = np.random.default_rng(7)
    n, horizon = 6, 80
    members = rng.standard_normal((n, 5)).astype(np.float32)
    env = mod.VectorCartPole(gym, n, "sync")
    rollout = mod.make_rollout(env, horizon)
    obs0 = env.reset(seed=11)
    got = np.asarray(
        rollout(
            {"w": jnp.asarray(members[:, :4]), "b": jnp.asarray(members[:, 4])}, jnp.asarray(obs0)
        )
    )
    env.close()
    assert env.steps == horizon

    host = gym.make_vec("CartPole-v1", num_envs=n, vectorization_mode="sync")
    obs, _ = host.reset(seed=11)
    np.testing.assert_array_equal(obs, obs0)
    total = np.zeros(n)
    alive = np.ones(n, bool)
    for _ in range(horizon):
        actions = (obs @ members[:, :4].T).diagonal() + members[:, 4] > 0
        obs, reward, term, trunc, _ = host.step(actions.astype(np.int64))
        total += np.where(alive, reward, 0.0)
        alive &= ~(term | trunc)
    host.close()
    np.testing.assert_array_equal(got, total)


def test_cartpole_solves():
    pytest.importorskip("gymnasium")
    mod = load_example("cartpole")
    res = mod.main(["--vectorization", "vector_entry_point"])
    assert res["solved_at"] is not None and res["exit_code"] == 0
    assert res["history"][-1]["policy_return"] >= 195


# --------------------------------------------------------------------------- missing extras


@pytest.mark.parametrize(
    "example, hidden, dist",
    [
        ("train_digits", "sklearn", "scikit-learn"),
        ("cartpole", "gymnasium", "gymnasium"),
    ],
)
def test_missing_optional_dependency_message(example, hidden, dist):
    code = (
        "import runpy, sys\n"
        f"sys.path.insert(0, {TESTS!r})\n"
        "import conftest  # aliases jaxlite to jax in oracle mode\n"
        f"sys.modules[{hidden!r}] = None\n"
        f"sys.argv = [{example + '.py'!r}]\n"
        f"runpy.run_path({os.path.join(EXAMPLES, example + '.py')!r}, run_name='__main__')\n"
    )
    env = dict(os.environ)
    env["PYTHONPATH"] = ROOT + os.pathsep + env.get("PYTHONPATH", "")
    proc = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        check=False,
        env=env,
        cwd=ROOT,
        timeout=120,
    )
    assert proc.returncode == 2, proc.stderr
    assert 'pip install -e ".[examples]"' in proc.stderr
    assert dist in proc.stderr
    assert "Traceback" not in proc.stderr


def test_readme_example_runs_and_prints_what_readme_says(capsys):
    """README's "A taste" block runs as written and prints the lines README quotes."""
    import re

    readme = open(os.path.join(ROOT, "README.md")).read()
    block = re.search(r"## A taste.*?```python\n(.*?)```", readme, re.S).group(1)
    exec(compile(block, "README.md", "exec"), {"__name__": "readme_example"})
    out = capsys.readouterr().out
    for line in ("step 0: loss 0.2500", "step 1: loss 0.2337", "step 2: loss 0.2186"):
        assert line in out
    assert "(4, 2)" in out


def test_readme_several_devices_block_runs():
    """README's "Several devices" block runs as written, in a fresh process (the device
    count is fixed at the first computation), and prints the line README quotes."""
    import re

    readme = open(os.path.join(ROOT, "README.md")).read()
    section = re.search(r"## Several devices(.*?)\n## ", readme, re.S).group(1)
    block = re.search(r"```python\n(.*?)```", section, re.S).group(1)
    quoted = re.search(r"It prints `(.*?)`", section).group(1)
    if os.environ.get("JAXLITE_ORACLE", "") == "jax":  # oracle mode: the same program on JAX
        block = block.replace("import jaxlite as jax", "import jax")
        block = block.replace("import jaxlite.numpy as jnp", "import jax.numpy as jnp")
    env = dict(os.environ, PYTHONPATH=ROOT + os.pathsep + os.environ.get("PYTHONPATH", ""))
    proc = subprocess.run(
        [sys.executable, "-c", block], capture_output=True, text=True, env=env, timeout=300
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip().splitlines()[-1] == quoted


@pytest.mark.jaxlite_only
def test_callbacks_tour_runs():
    """examples/callbacks_tour.py (every seed-tutorial example) runs from a plain checkout."""
    proc = subprocess.run(
        [sys.executable, os.path.join(ROOT, "examples", "callbacks_tour.py")],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=ROOT,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    out = proc.stdout
    assert "intermediate value: 3" in out  # debug.print shows the runtime value
    assert "generating float32[5]" in out  # io_callback ran with the runtime shape
    assert "Cannot `vmap` ordered IO callback." in out
    assert "hello" in out  # io_callback inside grad with no differentiated operand


# -------------------------------------------------------------------------- data_parallel


def test_data_parallel_matches_single_device(tmp_path):
    """examples/data_parallel.py over 2 virtual devices (a fresh interpreter: the device count
    is fixed before first use) reaches the single-device demo's accuracy to rounding, and
    every device logged every step, in order."""
    pytest.importorskip("sklearn")
    pytest.importorskip("tqdm")
    pytest.importorskip("matplotlib")
    script = (
        "import sys, json; sys.path.insert(0, 'examples'); import data_parallel as dp; "
        "r = dp.main(['--epochs', '2', '--devices', '2']); "
        "print('RESULT', json.dumps([r['test_accuracy'], r['rows']]))"
    )
    env = dict(os.environ, PYTHONPATH=ROOT)
    proc = subprocess.run(
        [sys.executable, "-c", script],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    line = next(ln for ln in proc.stdout.splitlines() if ln.startswith("RESULT "))
    test_acc, rows = json.loads(line[len("RESULT ") :])
    single = load_example("train_digits").main(
        ["--epochs", "2", "--out", str(tmp_path), "--no-progress", "--target", "0"]
    )
    assert abs(test_acc - single["test_accuracy"]) <= 1 / 359 + 1e-9  # at most one image
    for d in (0, 1):
        steps = [s for dev, s, _ in rows if dev == d]
        assert steps == list(range(len(steps))) and len(steps) == 2 * single["steps_per_epoch"]
    assert all(np.isfinite(loss) and loss > 0 for _, _, loss in rows)
