// Deals as Go programs shuffle with math/rand (v1): one seeded generator, several deals.
//
//	go run scripts/seeded/go_deal.go SEED N DEALS [shuffle|perm]
//
// Prints DEALS lines of N cards numbered 1..N: each line is the deck 1..N after
// r.Shuffle (the default), or r.Perm(N) with each card perm[k]+1, drawn in turn from
// r := rand.New(rand.NewSource(SEED)).
package main

import (
	"fmt"
	"math/rand"
	"os"
	"strconv"
	"strings"
)

func main() {
	if len(os.Args) < 4 || len(os.Args) > 5 {
		fmt.Fprintln(os.Stderr, "usage: go run go_deal.go SEED N DEALS [shuffle|perm]")
		os.Exit(2)
	}
	seed, err1 := strconv.ParseInt(os.Args[1], 10, 64)
	n, err2 := strconv.Atoi(os.Args[2])
	deals, err3 := strconv.Atoi(os.Args[3])
	variant := "shuffle"
	if len(os.Args) == 5 {
		variant = os.Args[4]
	}
	if err1 != nil || err2 != nil || err3 != nil || (variant != "shuffle" && variant != "perm") {
		fmt.Fprintln(os.Stderr, "usage: go run go_deal.go SEED N DEALS [shuffle|perm]")
		os.Exit(2)
	}
	r := rand.New(rand.NewSource(seed))
	for d := 0; d < deals; d++ {
		a := make([]int, n)
		if variant == "shuffle" {
			for i := range a {
				a[i] = i + 1
			}
			r.Shuffle(len(a), func(i, j int) { a[i], a[j] = a[j], a[i] })
		} else {
			for i, p := range r.Perm(n) {
				a[i] = p + 1
			}
		}
		cards := make([]string, n)
		for i, card := range a {
			cards[i] = strconv.Itoa(card)
		}
		fmt.Println(strings.Join(cards, " "))
	}
}
