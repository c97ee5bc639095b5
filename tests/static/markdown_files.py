"""The project's own Markdown files: the ones git tracks, or, outside a git
checkout, every .md file but those of dependencies and build trees."""
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SKIP = {"build", "node_modules", "third_party", ".git"}


def markdown_files():
    try:
        listed = subprocess.run(["git", "-C", str(ROOT), "ls-files", "-co", "--exclude-standard", "*.md"],
                                capture_output=True, text=True, check=True).stdout.split("\n")
        return sorted(ROOT / p for p in listed if p and (ROOT / p).is_file())
    except (OSError, subprocess.CalledProcessError):
        return sorted(p for p in ROOT.rglob("*.md") if not SKIP & set(p.relative_to(ROOT).parts))
