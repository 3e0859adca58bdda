// Deals decks as C# programs write the Fisher-Yates loop over System.Random, cards
// numbered from 1, one deal per line: `mono deal.exe [SEED|-] [CARDS] [DEALS]`
// (`-` or no seed: `new Random()`).
using System;
class Deal {
  static void Main(string[] args) {
    var rng = args.Length > 0 && args[0] != "-" ? new Random(int.Parse(args[0])) : new Random();
    int n = args.Length > 1 ? int.Parse(args[1]) : 52;
    int deals = args.Length > 2 ? int.Parse(args[2]) : 1;
    for (int d = 0; d < deals; d++) {
      var deck = new int[n];
      for (int i = 0; i < n; i++) deck[i] = i + 1;
      for (int i = n - 1; i > 0; i--) {
        int j = rng.Next(i + 1);
        int card = deck[i]; deck[i] = deck[j]; deck[j] = card;
      }
      Console.WriteLine(string.Join(" ", deck));
    }
  }
}
