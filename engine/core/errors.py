"""The one error the rules raise: it names the rule and carries a translatable reason.

The engine never formats a sentence for a player. It raises ``RuleError("D-13",
"deal.err.jsn_not_target", card=...)``; the presenter looks the key up in
``data/locale/<lang>.json`` and fills in the parameters, so the same refusal reads well in
zh-Hans, zh-Hant and en. Every key used here must exist in all three catalogues (a test checks).
"""

from __future__ import annotations


class RuleError(Exception):
    """An action the rules do not allow. Raised before any change to the state."""

    def __init__(self, rule: str, key: str, **params: object) -> None:
        self.rule = rule
        self.key = key
        self.params = params
        super().__init__(f"{rule}: {key} {params}" if params else f"{rule}: {key}")

    def __reduce__(self):  # keep it picklable with its parameters
        return (_rebuild, (self.rule, self.key, self.params))


def _rebuild(rule: str, key: str, params: dict) -> RuleError:
    return RuleError(rule, key, **params)
