${project.build.outputDirectory}
