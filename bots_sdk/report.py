"""The outcome of a conformance check: what passed, what failed, a few numbers."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class Report:
    title: str
    max_failures: int = 20  # past this many the check stops: one bug tends to repeat
    passed: list[str] = field(default_factory=list)
    failures: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.failures

    @property
    def full(self) -> bool:
        return len(self.failures) >= self.max_failures

    def fail(self, what: str) -> None:
        if not self.full:
            self.failures.append(what)

    def check(self, condition: bool, what: str, why_not: str) -> bool:
        """Record `what` as passed, or `what: why_not` as failed."""
        if condition:
            self.passed.append(what)
        else:
            self.fail(f"{what}: {why_not}")
        return condition

    def __str__(self) -> str:
        lines = [f"{self.title}: {'OK' if self.ok else 'FAILED'}"]
        lines += [f"  ok    {line}" for line in self.passed]
        lines += [f"  FAIL  {line}" for line in self.failures]
        if self.full:
            lines.append(f"  (stopped after {self.max_failures} failures)")
        lines += [f"  {line}" for line in self.notes]
        return "\n".join(lines)
