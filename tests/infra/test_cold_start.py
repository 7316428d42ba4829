"""What a Lambda cold start does: `import app` (every route) in a fresh interpreter. It must not build
an AWS client (the first request that needs one does) nor a pydantic validator (each model builds its
own on first use, `defer_build`): the first validator built in a process also makes pydantic scan every
installed package's entry points for plugins, ~40 ms before anything is asked. The timing itself is
measured in the benchmark (tests/bench/run.py, "Cold import")."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PROBE = """
import json, sys
import app
print(json.dumps({name: name in sys.modules for name in
                  ("boto3", "botocore.client", "pydantic.plugin._loader", "importlib.metadata", "moto")}))
"""


def test_importing_the_app_builds_no_client_and_no_validator():
    loaded = json.loads(subprocess.run([sys.executable, "-c", PROBE], cwd=ROOT, capture_output=True, text=True,
                                       check=True, timeout=60).stdout)
    assert loaded == {"boto3": False, "botocore.client": False, "pydantic.plugin._loader": False,
                      "importlib.metadata": False, "moto": False}
