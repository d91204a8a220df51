// A kernel whose second argument promises to be a multiple of 16.
tile.func @k(%p: !tile.ptr<f32>, %n: i32 {tile.divisibility = 16 : i64}) {
  tile.return
}
