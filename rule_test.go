package agui

import (
	"regexp"
	"testing"
)

func TestRuleNamesAndDescriptions(t *testing.T) {
	kebab := regexp.MustCompile(`^[a-z]+(-[a-z]+)*$`)
	names, descriptions := map[string]Rule{}, map[string]Rule{}
	for r := RuleRunEnded; r <= RuleTypeWithoutValue; r++ {
		name, d := r.String(), r.Describe()
		if !kebab.MatchString(name) {
			t.Errorf("rule %d: name %q is not kebab-case", r, name)
		}
		if d == "" || d == Rule(0).Describe() {
			t.Errorf("rule %s has no description", r)
		}
		if other, dup := names[name]; dup {
			t.Errorf("rules %d and %d share the name %q", other, r, name)
		}
		if other, dup := descriptions[d]; dup {
			t.Errorf("rules %s and %s share the description %q", other, r, d)
		}
		names[name], descriptions[d] = r, r
	}
	if len(names) != 12 {
		t.Errorf("%d rules, want 12", len(names))
	}
	if got := Rule(0).String(); got != "rule(0)" {
		t.Errorf("Rule(0).String() = %q", got)
	}
}

func TestRuleSeedNames(t *testing.T) {
	for r, want := range map[Rule]string{
		RuleRunEnded: "run-ended", RuleDuplicateRunStarted: "duplicate-run-started", RuleDuplicateStart: "duplicate-start",
		RuleNotOpen: "not-open", RuleUnknownID: "unknown-id", RuleOutOfOrder: "out-of-order",
		RuleOpenAtFinish: "open-at-finish", RuleOwnerMismatch: "owner-mismatch",
	} {
		if r.String() != want {
			t.Errorf("%d: %q, want %q", r, r.String(), want)
		}
	}
}

func TestVerificationErrorFormat(t *testing.T) {
	e := &VerificationError{Event: TypeTextMessageContent, Rule: RuleNotOpen, ID: "msg-2", Detail: `message "msg-2" is not open`}
	const want = "TEXT_MESSAGE_CONTENT breaks rule `not-open` (content and terminators require a matching start): message \"msg-2\" is not open"
	if e.Error() != want {
		t.Errorf("got  %s\nwant %s", e.Error(), want)
	}
}
