// Package coreach computes, for the product of a canonical tester with a
// test purpose, over-approximations of the states co-reachable from
// Accept (coreach_α ⊇ coreach(Accept)) and of the states reachable from
// the initial condition (reach_α), as §4 of the STG paper requires of its
// analysis (delegated to NBac there). The test selection (package
// selection) strengthens guards with the pre-image of coreach_α and
// redirects SUT outputs that certainly leave it to Inconc.
//
// Soundness: both results are supersets of the exact sets, so selection
// never removes a behaviour that can lead to Accept and never gives
// Inconc to an output after which Accept is still reachable.
package coreach
