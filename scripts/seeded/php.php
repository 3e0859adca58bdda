#!/usr/bin/env php
<?php
// php scripts/seeded/php.php SEED N DEALS [shuffle|str_shuffle]
//
// Deals as a PHP program deals: mt_srand(SEED) once, then DEALS times a fresh deck
// range(1, N) shuffled by shuffle() (or, with str_shuffle, a string of N distinct
// characters shuffled by str_shuffle(), read back as card numbers; N <= 256). Prints one
// deal a line, the cards 1..N in the order the shuffle left them. SEED "none" never
// calls mt_srand: PHP seeds itself (from 32 random bits) on the first shuffle.
[$seed, $n, $deals] = [$argv[1], (int) $argv[2], (int) $argv[3]];
$variant = $argv[4] ?? 'shuffle';
if (!in_array($variant, ['shuffle', 'str_shuffle'], true) || ($variant === 'str_shuffle' && $n > 256)) {
    fwrite(STDERR, "php.php: the variants are shuffle and str_shuffle (N <= 256)\n");
    exit(2);
}
if ($seed !== 'none') {
    mt_srand((int) $seed);
}
for ($d = 0; $d < $deals; $d++) {
    if ($variant === 'str_shuffle') {
        $chars = '';
        for ($i = 0; $i < $n; $i++) {
            $chars .= chr($i);
        }
        $dealt = str_shuffle($chars);
        $deck = array_map(fn ($c) => ord($c) + 1, str_split($dealt));
    } else {
        $deck = range(1, $n);
        shuffle($deck);
    }
    echo implode(' ', $deck), "\n";
}
