// The smallest module grt-compile assembles, for the tests of where its
// output goes (-o to a FIFO, a symbolic link, a directory).
vm.module @tiny {
  vm.export @test_ok
  vm.func @test_ok() {
    vm.return
  }
}
